//go:build !amd64 || purego

package simd

// SpMMRows is unavailable in this build; see Enabled.
func SpMMRows(alpha float32, rowPtr, col []int32, val []float32, perm []int32, b []float32, ldb int, c []float32, ldc, n, lo, hi int, set bool) {
	panic("simd: SpMMRows called without vector support")
}

// GemmSmallKRows is unavailable in this build; see Enabled.
func GemmSmallKRows(alpha float32, a []float32, k int, b []float32, ldb int, c []float32, ldc, n, lo, hi int, set bool) {
	panic("simd: GemmSmallKRows called without vector support")
}

// GemmTile12x8s is unavailable in this build; see Enabled.
func GemmTile12x8s(cols, kc int, alpha float32, a []float32, rsa, csa int, b []float32, ldb int, c []float32, ldc int) {
	panic("simd: GemmTile12x8s called without vector support")
}

// GemmRowTiles is unavailable in this build; see Enabled.
func GemmRowTiles(rows, nb, kc int, alpha float32, a []float32, rsa, csa int, b []float32, ldb, bstride int, c []float32, ldc int) {
	panic("simd: GemmRowTiles called without vector support")
}

// GemmRowTilesSet is unavailable in this build; see Enabled.
func GemmRowTilesSet(rows, nb, kc int, alpha float32, a []float32, rsa, csa int, b []float32, ldb, bstride int, c []float32, ldc int) {
	panic("simd: GemmRowTilesSet called without vector support")
}
