//go:build amd64.v3

package autograd

// goFusesFMA marks builds whose compiler fuses a·b+c in Go code (GOAMD64=v3
// or above), where a Go loop with an unconverted a·b+c rounds differently
// from a vector kernel that does not fuse (LeakyReLU's).
const goFusesFMA = true
