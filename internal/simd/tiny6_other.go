//go:build !amd64 || purego

package simd

// AnyBits reports whether some element v of x has bits(v)&mask == want (see
// the vector build's AnyBits), in Go.
func AnyBits(x []float32, mask, want uint32) bool { return anyBitsGo(x, mask, want) }

// AnyBits2 reports whether some element v of x has bits(v)&mask == want or
// bits(v)&mask2 == want2 (see the vector build's AnyBits2), in Go.
func AnyBits2(x []float32, mask, want, mask2, want2 uint32) bool {
	return anyBitsGo(x, mask, want) || anyBitsGo(x, mask2, want2)
}

// Transpose8 writes n8 8×8 blocks of src transposed into dst (see the
// vector build's Transpose8), in Go.
func Transpose8(n8 int, src []float32, lds int, dst []float32, ldd int) {
	transpose8Go(n8, src, lds, dst, ldd)
}

// KeepNonZero copies the entries whose values are not ±0 (see the vector
// build's KeepNonZero), in Go.
func KeepNonZero(col []int32, val []float32, outCol []int32, outVal []float32, masks []uint8, counts []int32) int {
	checkKeep(len(col), len(val), len(outCol), len(outVal), len(masks), len(counts))
	return keepTail(len(col), 0, col, func(k int) (bool, int32, float32) { return val[k] != 0, 0, val[k] }, outCol, outVal, nil, masks, counts)
}

// KeepNonZeroPerm is KeepNonZero over a transposed pattern (see the vector
// build's KeepNonZeroPerm), in Go.
func KeepNonZeroPerm(col, perm []int32, val []float32, outCol, outPerm []int32, masks []uint8, counts []int32, gather []float32) int {
	checkKeep(len(col), len(perm), len(outCol), len(outPerm), len(masks), len(counts))
	return keepTail(len(col), 0, col, func(k int) (bool, int32, float32) { return val[perm[k]] != 0, perm[k], 0 }, outCol, nil, outPerm, masks, counts)
}
