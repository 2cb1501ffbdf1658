//go:build !amd64.v3

package autograd

// goFusesFMA marks builds whose compiler fuses a·b+c in Go code (GOAMD64=v3
// or above); on other architectures there are no vector kernels.
const goFusesFMA = false
