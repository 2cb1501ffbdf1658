package tensor

import "github.com/pcgcn/pcgcn/internal/simd"

// The narrow path of SpMM. A product with at most eight columns (PCGCN's
// class scores Â·S and their gradient) holds one vector of c's row, so
// SpMMRow's loop over a row's entries is one chain of fused multiply-adds,
// each waiting for the one before: about five cycles an entry, whatever the
// memory does. simd.SpMMNarrowGroups runs four rows' chains interleaved. To keep
// the four busy together, rows go four at a time in order of their number
// of entries (CSR.byDegree: neighbours in that order have nearly equal
// lengths). Each row of c is still computed by one goroutine with SpMMRow's
// chain of operations, so the bits are those of spmm for any thread count
// and any grouping (TestSpMMNarrowMatchesRowByRow).

// spmmNarrowMaxCols is the widest product taking the narrow path (one
// vector of eight floats).
const spmmNarrowMaxCols = 8

// spmmNarrowMaxFloats bounds b for the narrow path: rows taken out of
// order read c and b in no order either, which a graph whose narrow
// operand fits in the caches (4 MiB: a million-node graph's is 20 MiB)
// does not notice; larger ones keep spmm's prefetching row order.
const spmmNarrowMaxFloats = 1 << 20

// narrowSpMM reports whether SpMM and a symmetric SpMMT take the narrow
// path for b.
func narrowSpMM(alpha float32, b *Dense) bool {
	return simd.Enabled() && alpha != 0 && b.Cols >= 1 && b.Cols <= spmmNarrowMaxCols && len(b.Data) <= spmmNarrowMaxFloats
}

// spmmNarrow computes c = alpha·a·b + beta·c over a's rows by degree,
// pieces of that order in parallel, balanced by entries.
func spmmNarrow(e Exec, alpha float32, a *CSR, b *Dense, beta float32, c *Dense) {
	order, nnz := a.byDegree()
	kd := kernel{alpha: alpha, beta: beta, rowPtr: a.RowPtr, colIdx: a.ColIdx, val: a.Val, order: order, b: b, c: c}
	rows := a.Rows
	if e.Serial(rows, int(a.RowPtr[rows])*b.Cols) {
		spmmNarrowRows(&kd, 0, rows)
		return
	}
	e.runKernel(rows, nnz, kd, spmmNarrowRows)
}

// spmmNarrowRows computes the rows at positions [lo, hi) of the degree
// order kd.order: each row scaled by beta, then the rows with entries four
// at a time (simd.SpMMNarrowGroups, one call for all the groups), the last
// up to three one at a time (an empty row has nothing to add: SpMMRow
// leaves it as beta made it). With beta 0 the groups' rows are not cleared
// first: the kernel folds their sums onto +0 itself, the bits of a cleared
// row (TestSpMMNarrowMatchesRowByRow).
func spmmNarrowRows(kd *kernel, lo, hi int) {
	n, alpha, rowPtr, colIdx, val, order := kd.b.Cols, kd.alpha, kd.rowPtr, kd.colIdx, kd.val, kd.order
	bd, cd := kd.b.Data, kd.c.Data
	first := lo
	for first < hi && rowPtr[order[first]+1] == rowPtr[order[first]] {
		first++ // the empty rows come first
	}
	tail := first + (hi-first)/4*4
	set := kd.beta == 0
	if set {
		for _, i := range order[lo:first] {
			clear(cd[int(i)*n : (int(i)+1)*n])
		}
		for _, i := range order[tail:hi] {
			clear(cd[int(i)*n : (int(i)+1)*n])
		}
	} else {
		for _, i := range order[lo:hi] {
			scaleRow(cd[int(i)*n:(int(i)+1)*n], kd.beta)
		}
	}
	simd.SpMMNarrowGroups(order[first:tail], rowPtr, colIdx, val, bd, cd, n, alpha, set)
	for _, i := range order[tail:hi] {
		s, t := rowPtr[i], rowPtr[i+1]
		simd.SpMMRow(alpha, colIdx[s:t], val[s:t], nil, bd, n, cd[int(i)*n:(int(i)+1)*n])
	}
}
