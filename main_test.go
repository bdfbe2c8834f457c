package main

import (
	rdebug "runtime/debug"
	"testing"
)

func TestQuietLogs(t *testing.T) {
	run := func(env map[string]string) map[string]string {
		set := map[string]string{}
		quietLogs(func(k string) string { return env[k] }, func(k, v string) error { set[k] = v; return nil })
		return set
	}
	if got := run(map[string]string{}); len(got) != 4 || got["TF_LOG_SDK_FRAMEWORK"] != "OFF" || got["TF_LOG_PROVIDER_POSTGRESQL"] != "OFF" {
		t.Fatalf("without TF_LOG the SDK and provider logs must be off: %v", got)
	}
	for _, k := range []string{"TF_LOG", "TF_LOG_PROVIDER"} {
		if got := run(map[string]string{k: "DEBUG"}); len(got) != 0 {
			t.Fatalf("with %s set nothing may change: %v", k, got)
		}
	}
	if got := run(map[string]string{"TF_LOG_SDK_PROTO": "TRACE"}); got["TF_LOG_SDK_PROTO"] != "" || len(got) != 3 {
		t.Fatalf("a level set explicitly is kept: %v", got)
	}
}

func TestCollectLessOften(t *testing.T) {
	defer rdebug.SetGCPercent(rdebug.SetGCPercent(100))
	collectLessOften(func(string) string { return "" })
	if got := rdebug.SetGCPercent(100); got != gcPercent {
		t.Errorf("GOGC unset: the GC target is %d, want %d", got, gcPercent)
	}
	collectLessOften(func(k string) string {
		if k == "GOGC" {
			return "50"
		}
		return ""
	})
	if got := rdebug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC set: the provider changed the GC target to %d", got)
	}
}
