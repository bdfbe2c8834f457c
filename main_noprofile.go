//go:build !pprof

package main

// startProfile profiles nothing without the build tag pprof (main_pprof.go).
func startProfile() func() { return func() {} }
