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

// AnyBits2 reports whether some element v of x has bits(v)&mask == want or
// bits(v)&mask2 == want2, in one pass.
func AnyBits2(x []float32, mask, want, mask2, want2 uint32) bool {
	n := len(x) &^ 31
	if n > 0 && anyBits2(n, &x[0], mask, want, mask2, want2) {
		return true
	}
	return anyBitsGo(x[n:], mask, want) || anyBitsGo(x[n:], mask2, want2)
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

// KeepNonZero copies the entries k of (col, val) whose values are not ±0
// (a NaN is kept) to the front of outCol and outVal, in order, and returns
// how many there are. For each round r of eight entries, masks[r] gets the
// round's kept lanes (bit j: entry 8r+j) and counts[r] the number kept
// before it; masks and counts have len(col)/8+1 elements, the last for the
// partial round (when there is none, mask 0 and the total count). outCol
// and outVal need room for len(col)+8: each round stores eight lanes.
func KeepNonZero(col []int32, val []float32, outCol []int32, outVal []float32, masks []uint8, counts []int32) int {
	n := len(col)
	checkKeep(n, len(val), len(outCol), len(outVal), len(masks), len(counts))
	m := 0
	if n8 := n / 8; n8 > 0 {
		m = keepNonZero(n8, &col[0], &val[0], nil, &outCol[0], &outVal[0], &masks[0], &counts[0])
	}
	return keepTail(n, m, col, func(k int) (bool, int32, float32) { return val[k] != 0, 0, val[k] }, outCol, outVal, nil, masks, counts)
}

// KeepNonZeroPerm is KeepNonZero over a transposed pattern: entry k has
// the value val[perm[k]], and outPerm gets the kept entries' perm. gather
// (room for len(col)) receives the values in the entries' order.
func KeepNonZeroPerm(col, perm []int32, val []float32, outCol, outPerm []int32, masks []uint8, counts []int32, gather []float32) int {
	n := len(col)
	checkKeep(n, len(perm), len(outCol), len(outPerm), len(masks), len(counts))
	g := gather[:n]
	for k, p := range perm[:n] {
		g[k] = val[p]
	}
	m := 0
	if n8 := n / 8; n8 > 0 {
		m = keepNonZeroPerm(n8, &col[0], &g[0], &perm[0], &outCol[0], &outPerm[0], &masks[0], &counts[0])
	}
	return keepTail(n, m, col, func(k int) (bool, int32, float32) { return val[perm[k]] != 0, perm[k], 0 }, outCol, nil, outPerm, masks, counts)
}
