//go:build !amd64 || purego

package simd

// AnyBits reports whether some element v of x has bits(v)&mask == want (see
// the vector build's AnyBits), in Go.
func AnyBits(x []float32, mask, want uint32) bool { return anyBitsGo(x, mask, want) }

// Transpose8 writes n8 8×8 blocks of src transposed into dst (see the
// vector build's Transpose8), in Go.
func Transpose8(n8 int, src []float32, lds int, dst []float32, ldd int) {
	transpose8Go(n8, src, lds, dst, ldd)
}
