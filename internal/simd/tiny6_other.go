//go:build !amd64 || purego

package simd

// AnyBits reports whether some element v of x has bits(v)&mask == want (see
// the vector build's AnyBits), in Go.
func AnyBits(x []float32, mask, want uint32) bool { return anyBitsGo(x, mask, want) }
