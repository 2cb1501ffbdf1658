//go:build !amd64.v3

package tensor

// compileLevel is empty for the default amd64 level (and on other
// architectures): the compiler emits no fused multiply-adds of its own.
const compileLevel = ""
