//go:build pprof

package main

import (
	"io"
	"os"
	"runtime/pprof"
	"runtime/trace"
	"strconv"
)

// startProfile, in a build with the tag pprof, writes a CPU profile of the
// provider process to the file PGTF_CPUPROFILE names (make bench-plan's
// figures, explained), and an execution trace to the file PGTF_TRACE names
// (where reads wait: `go tool trace -pprof=net` or `-pprof=sync`); both end
// when the provider stops.
func startProfile() func() {
	stopTrace := record("PGTF_TRACE", trace.Start, trace.Stop)
	stopCPU := record("PGTF_CPUPROFILE", pprof.StartCPUProfile, pprof.StopCPUProfile)
	return func() {
		stopCPU()
		stopTrace()
	}
}

// record starts a recorder (start) into the file the environment variable env
// names, with the process ID appended (Terraform starts several provider
// processes); the function it returns stops it (stop) and closes the file.
func record(env string, start func(io.Writer) error, stop func()) func() {
	path := os.Getenv(env)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path + "." + strconv.Itoa(os.Getpid()))
	if err != nil {
		return func() {}
	}
	if err := start(f); err != nil {
		_ = f.Close()
		return func() {}
	}
	return func() {
		stop()
		_ = f.Close()
	}
}
