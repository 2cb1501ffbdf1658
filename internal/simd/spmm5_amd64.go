//go:build !purego

package simd

import "fmt"

// SpMMRows computes rows [lo, hi) of c = alpha·a·b (+ c) for the CSR matrix
// a (rowPtr, col, val; the value of entry k is val[perm[k]] when perm is not
// nil), n columns: row i of c is c[i·ldc : i·ldc+n] and row j of b is
// b[j·ldb : j·ldb+n], so that the product may cover a block of columns of
// wider matrices. Each row gets the operations of SpMMRow(alpha, its
// entries, b, ldb, its row of c): one fused multiply-add chain from zero per
// element over the entries in order, then c = fma(alpha, chain, c). With
// set, c's rows are taken as +0 instead of read (the bits of clearing them
// first: a beta of 0), and empty rows are written +0; without, empty rows
// are left alone. One call for the whole range: no call, argument spill or
// clearing pass per row. The indices in col and perm are not checked.
func SpMMRows(alpha float32, rowPtr, col []int32, val []float32, perm []int32, b []float32, ldb int, c []float32, ldc, n, lo, hi int, set bool) {
	if hi <= lo || n == 0 {
		return
	}
	if lo < 0 || n < 0 || ldc < n || ldb < n || hi >= len(rowPtr) || (hi-1)*ldc+n > len(c) {
		panic(fmt.Sprintf("simd: SpMMRows of rows [%d, %d) of %d, %d columns (ldb %d, ldc %d) into %d floats", lo, hi, len(rowPtr)-1, n, ldb, ldc, len(c)))
	}
	if int(rowPtr[hi]) > len(col) || (perm == nil && int(rowPtr[hi]) > len(val)) || (perm != nil && int(rowPtr[hi]) > len(perm)) || len(b) == 0 {
		panic(fmt.Sprintf("simd: SpMMRows: row pointer %d past %d indices, %d values, %d permuted, b of %d", rowPtr[hi], len(col), len(val), len(perm), len(b)))
	}
	s := 0
	if set {
		s = 1
	}
	nnz := len(col)
	if nnz == 0 {
		// every row is empty: only set writes anything
		if set {
			for i := lo; i < hi; i++ {
				clear(c[i*ldc : i*ldc+n])
			}
		}
		return
	}
	if perm != nil {
		spmmRowsPerm(lo, hi, &rowPtr[0], &col[0], &val[0], &perm[0], &b[0], ldb, &c[0], ldc, n, alpha, s, nnz)
		return
	}
	spmmRows(lo, hi, &rowPtr[0], &col[0], &val[0], nil, &b[0], ldb, &c[0], ldc, n, alpha, s, nnz)
}

// GemmSmallKRows computes rows [lo, hi) of c = alpha·a·b (+ c) for a dense a
// of k ≤ 8 columns (row i at a[i·k:]), b of k rows (row p at b[p·ldb:]) and
// n columns, row i of c at c[i·ldc:]: each row gets the operations of
// SpMMRow(alpha, [0 … k−1], a's row, b, ldb, its row of c), zeros of a
// included, and with set c's rows are taken as +0 instead of read (see
// SpMMRows).
func GemmSmallKRows(alpha float32, a []float32, k int, b []float32, ldb int, c []float32, ldc, n, lo, hi int, set bool) {
	if hi <= lo || n == 0 {
		return
	}
	if k < 1 || k > 8 || lo < 0 || ldc < n || ldb < n || hi*k > len(a) || (k-1)*ldb+n > len(b) || (hi-1)*ldc+n > len(c) {
		panic(fmt.Sprintf("simd: GemmSmallKRows of rows [%d, %d), k %d, %d columns: a %d, b %d (ldb %d), c %d (ldc %d)", lo, hi, k, n, len(a), len(b), ldb, len(c), ldc))
	}
	s := 0
	if set {
		s = 1
	}
	gemmSmallKRowsK(lo, hi, &a[0], k, &b[0], ldb, &c[0], ldc, n, alpha, s)
}

// GemmTile12x8s is GemmTile for a tile of 12 rows and cols ≤ 8 columns:
// c[r·ldc+j] = alpha·Σ_p a[r·rsa+p·csa]·b[p·ldb+j] + c[r·ldc+j], each element
// with GemmTile's operations (the bits of two 6-row GemmTile calls), twelve
// chains in flight instead of six. c's rows are written with plain stores
// of cols floats.
func GemmTile12x8s(cols, kc int, alpha float32, a []float32, rsa, csa int, b []float32, ldb int, c []float32, ldc int) {
	const rows = 12
	if cols < 1 || cols > 8 || kc < 1 || rsa < 0 || csa < 0 || ldb < 0 || ldc < 0 ||
		len(a) <= (rows-1)*rsa+(kc-1)*csa || len(b) < (kc-1)*ldb+cols || len(c) < (rows-1)*ldc+cols {
		panic(fmt.Sprintf("simd: GemmTile12x8s 12×%d×%d does not fit slices a %d (strides %d, %d), b %d (ld %d), c %d (ld %d)",
			kc, cols, len(a), rsa, csa, len(b), ldb, len(c), ldc))
	}
	gemm12x8s(kc, &a[0], rsa, csa, &b[0], ldb, &c[0], ldc, alpha, cols)
}
