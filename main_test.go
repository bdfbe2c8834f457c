package main

import (
	"os"
	"path/filepath"
	"regexp"
	rdebug "runtime/debug"
	"strings"
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

// TestScripts_regressionHeadUnderPipefail: `.ci/run` once failed after 12 s with
// exit code 141 because `terraform version | head -1` ran under `set -o pipefail`:
// head exits after one line, terraform writes its second line into a closed pipe
// and dies of SIGPIPE, and pipefail turns that race into the script's failure.
// Scripts that set pipefail take the first line with `sed -n 1p`, which reads its
// whole input.
func TestScripts_regressionHeadUnderPipefail(t *testing.T) {
	files, err := filepath.Glob("scripts/*")
	if err != nil {
		t.Fatal(err)
	}
	sub, _ := filepath.Glob("scripts/*/*")
	files = append(append(files, sub...), ".ci/run")
	early := regexp.MustCompile(`\|\s*(head|grep\s+(-[a-zA-Z]*[qm]|--quiet|--max-count))\b`)
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || fi.IsDir() {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "pipefail") {
			continue
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "#") {
				continue
			}
			if early.MatchString(line) {
				t.Errorf("%s:%d: a reader that stops early under pipefail can fail the script with SIGPIPE: %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}
