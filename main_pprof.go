//go:build pprof

package main

import (
	"os"
	"runtime/pprof"
	"strconv"
)

// startProfile, in a build with the tag pprof, writes a CPU profile of the
// provider process to the file PGTF_CPUPROFILE names (make bench-plan's
// figures, explained): the profile ends when the provider stops.
func startProfile() func() {
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
