//go:build benchfloor

package provider

// benchFloor serves every resource as floorResource (bench_floor.go).
const benchFloor = true
