//go:build !purego

package simd

import "fmt"

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

// Transpose8 writes n8 blocks of 8×8 floats transposed: block t is columns
// 8t..8t+7 of the eight rows of src (lds floats apart), and
// dst[(8t+p)·ldd + r] = src[r·lds + 8t + p] for r, p < 8. Gemm packs a
// transposed b with it (tensor's packB).
func Transpose8(n8 int, src []float32, lds int, dst []float32, ldd int) {
	if n8 <= 0 {
		return
	}
	if lds < 0 || ldd < 8 || 7*lds+8*n8 > len(src) || (8*n8-1)*ldd+8 > len(dst) {
		panic(fmt.Sprintf("simd: Transpose8 of %d blocks (lds %d, ldd %d) from %d floats into %d", n8, lds, ldd, len(src), len(dst)))
	}
	transpose8x8(n8, &src[0], lds, &dst[0], ldd)
}
