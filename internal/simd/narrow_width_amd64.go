//go:build !purego

package simd

// gemmTile8s runs GemmTile's kernel for a tile of rows rows (1..6) and at
// most 8 columns: gemm<rows>x8m's chains, with c's rows written by plain
// stores of their cols floats (storeN in asm/actor4.go) instead of
// VMASKMOVPS, which no later load can forward from (PCGCN's n×c products
// S = H̄Pᵀ and the classifier: 5–10% faster, BenchmarkPlainVsMaskedStores).
// The masked kernels gemm<rows>x8m stay as the reference of the tests; the
// narrow-row kernels of SoftmaxShiftRows (in place), SoftmaxNormRows,
// SoftmaxBackRows, CEShiftRows(By) and CEGradRows likewise have plain-store
// versions (their names end in S). The calls are direct: a function value
// would lose the kernels' noescape and move their operands to the heap.
func gemmTile8s(rows, kc int, a *float32, rsa, csa int, b *float32, ldb int, c *float32, ldc int, alpha float32, cols int) {
	switch rows {
	case 1:
		gemm1x8s(kc, a, rsa, csa, b, ldb, c, ldc, alpha, cols)
	case 2:
		gemm2x8s(kc, a, rsa, csa, b, ldb, c, ldc, alpha, cols)
	case 3:
		gemm3x8s(kc, a, rsa, csa, b, ldb, c, ldc, alpha, cols)
	case 4:
		gemm4x8s(kc, a, rsa, csa, b, ldb, c, ldc, alpha, cols)
	case 5:
		gemm5x8s(kc, a, rsa, csa, b, ldb, c, ldc, alpha, cols)
	default:
		gemm6x8s(kc, a, rsa, csa, b, ldb, c, ldc, alpha, cols)
	}
}
