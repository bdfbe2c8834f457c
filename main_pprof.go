//go:build pprof

package main

import (
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
	stopTrace := startTrace()
	stopCPU := startCPUProfile()
	return func() {
		stopCPU()
		stopTrace()
	}
}

func startTrace() func() {
	path := os.Getenv("PGTF_TRACE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path + "." + strconv.Itoa(os.Getpid()))
	if err != nil {
		return func() {}
	}
	if err := trace.Start(f); err != nil {
		_ = f.Close()
		return func() {}
	}
	return func() {
		trace.Stop()
		_ = f.Close()
	}
}

func startCPUProfile() func() {
	path := os.Getenv("PGTF_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path + "." + strconv.Itoa(os.Getpid()))
	if err != nil {
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}
}
