//go:build !amd64.v3

package optim

// goFusesFMA marks builds whose compiler fuses a·b+c in Go code (GOAMD64=v3
// or above); on other architectures the vector kernel does not exist.
const goFusesFMA = false
