//go:build !purego

package simd

import "fmt"

// gemmTile8s runs GemmTile's kernel for a tile of rows rows (1..6) and at
// most 8 columns: gemm<rows>x8m's chains, with c's rows written by plain
// stores of their cols floats (storeN in asm/stores.go) instead of
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

// PackPanels16 copies kc rows of nq whole 16-float panels: for p < kc and
// q < nq, src[p·ld+16q : p·ld+16q+16] to dst[q·stride+16p:], packB's layout
// of a block of b (package tensor) in one call, where a copy per panel
// calls memmove for every 64 bytes.
func PackPanels16(dst, src []float32, ld, kc, nq, stride int) {
	if kc <= 0 || nq <= 0 {
		return
	}
	if ld < 16*nq || stride < 16*kc || len(src) < (kc-1)*ld+16*nq || len(dst) < (nq-1)*stride+16*kc {
		panic(fmt.Sprintf("simd: PackPanels16 of %d×%d panels (ld %d, stride %d) from %d floats into %d", kc, nq, ld, stride, len(src), len(dst)))
	}
	packPanels16(&dst[0], &src[0], ld, kc, nq, stride)
}
