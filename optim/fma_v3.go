//go:build amd64.v3

package optim

// goFusesFMA marks builds whose compiler fuses a·b+c in Go code (GOAMD64=v3
// or above), where the Go loop rounds differently from the vector kernel.
const goFusesFMA = true
