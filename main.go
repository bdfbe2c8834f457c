package main

import (
	"flag"
	"log"
	"os"
	rdebug "runtime/debug"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/pgtf/terraform-provider-postgresql/internal/provider"
)

// version is set by the linker (goreleaser: -X main.version=...).
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	if !debug {
		quietLogs(os.Getenv, os.Setenv)
	}

	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	// what providerserver.Serve does for protocol 6, with the framework's
	// server wrapped (provider.ProtocolServer)
	collectLessOften(os.Getenv)
	stop := startProfile()
	err := tf6server.Serve("registry.terraform.io/pgtf/postgresql", provider.ProtocolServer(version), opts...)
	stop()
	if err != nil {
		log.Fatal(err.Error())
	}
}

// quietLogs turns the plugin SDK's and the provider's log output off when
// Terraform discards it anyway: Terraform keeps a provider's log lines only
// when TF_LOG or TF_LOG_PROVIDER asks for them, but without a level of their
// own the SDKs log every request at TRACE (JSON-encoded to stderr), a sixth
// of the provider's CPU in a large plan. Levels set explicitly are kept.
// gcPercent is the provider's garbage collection target (Go's default is 100).
// Every request makes much short-lived garbage (the framework converts each
// state and plan value several times) over a small live heap, so collecting
// it a third as often takes a large share of the provider's CPU off a plan:
// 13% of a 401-resource plan's wall time on 2 CPUs (make bench-plan), for
// about 10 MiB more peak memory there. A GOGC set in the environment wins.
const gcPercent = 300

func collectLessOften(getenv func(string) string) {
	if getenv("GOGC") == "" {
		rdebug.SetGCPercent(gcPercent)
	}
}

func quietLogs(getenv func(string) string, setenv func(string, string) error) {
	if getenv("TF_LOG") != "" || getenv("TF_LOG_PROVIDER") != "" {
		return
	}
	for _, k := range []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_POSTGRESQL"} {
		if getenv(k) == "" {
			_ = setenv(k, "OFF")
		}
	}
}
