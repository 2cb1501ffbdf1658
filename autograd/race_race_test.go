//go:build race

package autograd

// raceBuild reports a -race build (see race_norace_test.go).
const raceBuild = true
