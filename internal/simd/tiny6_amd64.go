//go:build !purego

package simd

// AnyBits reports whether some element v of x has bits(v)&mask == want:
// with mask and want 0x7f800000, whether x holds an infinity or a NaN; with
// mask 0xffffffff and want 0x80000000, whether it holds a −0. Thirty-two
// floats a round in the vector kernel, the rest in Go.
func AnyBits(x []float32, mask, want uint32) bool {
	n := len(x) &^ 31
	if n > 0 && anyBits(n, &x[0], mask, want) {
		return true
	}
	return anyBitsGo(x[n:], mask, want)
}
