//go:build !benchfloor

package provider

// benchFloor is true in the benchmark's floor build only (bench_floor.go).
const benchFloor = false
