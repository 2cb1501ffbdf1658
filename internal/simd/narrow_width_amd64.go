//go:build !purego

package simd

// spmmNarrowGroupsWidth runs the kernel of SpMMNarrowGroups for n columns
// (1..8): spmmNarrowGroups's chains, with c's rows written by plain stores
// of their n floats instead of a masked store, which AMD's cores run as
// microcode (about half the narrow SpMM's time on Actor's short rows). The
// generic kernel spmmNarrowGroups stays as the reference of the tests. The
// calls are direct (a function value would lose the kernels' noescape and
// move their operands to the heap).
func spmmNarrowGroupsWidth(n int, rows *int32, groups int, rowPtr *int32, col *int32, val *float32, b *float32, c *float32, alpha float32, set int) {
	switch n {
	case 1:
		spmmNarrowGroups1(rows, groups, rowPtr, col, val, b, c, alpha, set)
	case 2:
		spmmNarrowGroups2(rows, groups, rowPtr, col, val, b, c, alpha, set)
	case 3:
		spmmNarrowGroups3(rows, groups, rowPtr, col, val, b, c, alpha, set)
	case 4:
		spmmNarrowGroups4(rows, groups, rowPtr, col, val, b, c, alpha, set)
	case 5:
		spmmNarrowGroups5(rows, groups, rowPtr, col, val, b, c, alpha, set)
	case 6:
		spmmNarrowGroups6(rows, groups, rowPtr, col, val, b, c, alpha, set)
	case 7:
		spmmNarrowGroups7(rows, groups, rowPtr, col, val, b, c, alpha, set)
	default:
		spmmNarrowGroups8(rows, groups, rowPtr, col, val, b, c, alpha, set)
	}
}

// gemmTile8s runs GemmTile's kernel for a tile of rows rows (1..6) and at
// most 8 columns: gemm<rows>x8m's chains, with c's rows written by plain
// stores of their cols floats (storeN in asm/actor4.go) instead of
// VMASKMOVPS. PCGCN's n×c products (S = H̄Pᵀ, the classifier) write one
// 5-float row of c per row of the graph. The masked kernels gemm<rows>x8m
// stay as the reference of the tests; the narrow-row kernels of
// OneHotArgmaxRows, SoftmaxShiftRows, SoftmaxNormRows, SoftmaxBackRows and
// CEGradRows likewise have plain-store versions (their names end in S).
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
