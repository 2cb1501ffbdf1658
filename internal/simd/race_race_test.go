//go:build race

package simd

// raceBuild reports a -race build (see race_norace_test.go).
const raceBuild = true
