package tensor

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// SpMM computes c = alpha·a·b + beta·c for a sparse a.
func SpMM(e Exec, alpha float32, a *CSR, b *Dense, beta float32, c *Dense) {
	if a.Cols != b.Rows || c.Rows != a.Rows || c.Cols != b.Cols {
		panic(fmt.Sprintf("tensor: SpMM shape mismatch: a %s, b %s, c %s", a.Shape(), b.Shape(), c.Shape()))
	}
	a.checkIndices()
	if narrowSpMM(alpha, b) {
		spmmNarrow(e, alpha, a, b, beta, c)
		return
	}
	spmm(e, alpha, a.RowPtr, a.ColIdx, a.Val, nil, b, beta, c)
}

// SpMMT computes c = alpha·aᵀ·b + beta·c without forming aᵀ's values: it walks
// a's cached transposed pattern (or a itself when a is marked symmetric).
func SpMMT(e Exec, alpha float32, a *CSR, b *Dense, beta float32, c *Dense) {
	if a.Rows != b.Rows || c.Rows != a.Cols || c.Cols != b.Cols {
		panic(fmt.Sprintf("tensor: SpMMT shape mismatch: a %s, b %s, c %s", a.Shape(), b.Shape(), c.Shape()))
	}
	a.checkIndices()
	if a.Symmetric() {
		if narrowSpMM(alpha, b) {
			spmmNarrow(e, alpha, a, b, beta, c)
			return
		}
		spmm(e, alpha, a.RowPtr, a.ColIdx, a.Val, nil, b, beta, c)
		return
	}
	rp, ci, pm := a.transposed()
	spmm(e, alpha, rp, ci, a.Val, pm, b, beta, c)
}

// spmm is the row-parallel kernel; when perm is non-nil the value of stored
// entry k is val[perm[k]]. Row i of c is scaled by beta, then receives
// alpha·Σ_k v_k·b[col_k,:] with the sum over the row's entries in order (in
// vector registers when package simd is enabled), all by the one goroutine
// that takes the piece of rows holding row i.
func spmm(e Exec, alpha float32, rowPtr, colIdx []int32, val []float32, perm []int32, b *Dense, beta float32, c *Dense) {
	kd := kernel{alpha: alpha, beta: beta, rowPtr: rowPtr, colIdx: colIdx, val: val, perm: perm, b: b, c: c}
	rows := len(rowPtr) - 1
	if nnz := int(rowPtr[rows]); usePanels(nnz, b, alpha, beta) {
		n := b.Rows * spmmPanelCols
		if perm != nil {
			n += nnz // the values in the transposed order: see spmmPanels
		}
		if buf, ok := e.Scratch.Take(n); ok {
			defer e.Scratch.Release()
			spmmPanels(e, kd, buf)
			return
		}
	}
	if e.Serial(rows, int(rowPtr[rows])*max(b.Cols, 1)) {
		spmmRows(&kd, 0, rows)
		return
	}
	e.runKernel(rows, rowPtr, kd, spmmRows)
}

// spmmRowRangeChunk is how many rows of c spmmRows scales before it
// multiplies them when beta is neither 0 nor 1 (16 rows of 64 floats: 4 KiB,
// still in L1 when the product reads them).
const spmmRowRangeChunk = 16

// spmmRows computes rows [lo, hi) of spmm.
func spmmRows(kd *kernel, lo, hi int) {
	n, alpha, rowPtr, colIdx, val, perm := kd.b.Cols, kd.alpha, kd.rowPtr, kd.colIdx, kd.val, kd.perm
	bd, cd := kd.b.Data, kd.c.Data
	vec := simd.Enabled()
	if vec && alpha != 0 && n > 0 {
		// the whole range in one kernel call, each row with SpMMRow's
		// operations; beta 0 takes c as +0 (set) instead of clearing it,
		// the bits of the clearing pass
		if kd.beta == 0 || kd.beta == 1 {
			simd.SpMMRows(alpha, rowPtr, colIdx, val, perm, bd, n, cd, n, n, lo, hi, kd.beta == 0)
			return
		}
		for i0 := lo; i0 < hi; i0 += spmmRowRangeChunk {
			i1 := min(i0+spmmRowRangeChunk, hi)
			scaleRow(cd[i0*n:i1*n], kd.beta)
			simd.SpMMRows(alpha, rowPtr, colIdx, val, perm, bd, n, cd, n, n, i0, i1, false)
		}
		return
	}
	for i := lo; i < hi; i++ {
		ci := cd[i*n : (i+1)*n]
		scaleRow(ci, kd.beta)
		if alpha == 0 {
			continue
		}
		s, t := rowPtr[i], rowPtr[i+1]
		if vec {
			if perm != nil {
				simd.SpMMRow(alpha, colIdx[s:t], val, perm[s:t], bd, n, ci)
			} else {
				simd.SpMMRow(alpha, colIdx[s:t], val[s:t], nil, bd, n, ci)
			}
			continue
		}
		for k := s; k < t; k++ {
			v := val[k]
			if perm != nil {
				v = val[perm[k]]
			}
			j := int(colIdx[k])
			axpy(alpha*v, bd[j*n:(j+1)*n], ci)
		}
	}
}

// SDDMM computes, for every stored entry k = (i, j) of pattern, out[k] =
// ⟨a[i,:], b[j,:]⟩ (a sampled dense-dense product, as in attention scores).
func SDDMM(e Exec, pattern *CSR, a, b *Dense, out []float32) {
	if a.Rows != pattern.Rows || b.Rows != pattern.Cols || a.Cols != b.Cols || len(out) != pattern.NNZ() {
		panic(fmt.Sprintf("tensor: SDDMM shape mismatch: pattern %s, a %s, b %s, out %d", pattern.Shape(), a.Shape(), b.Shape(), len(out)))
	}
	pattern.checkIndices()
	kd := kernel{pattern: pattern, a: a, b: b, out: out}
	rows := pattern.Rows
	if e.Serial(rows, int(pattern.RowPtr[rows])*max(a.Cols, 1)) {
		sddmmRows(&kd, 0, rows)
		return
	}
	e.runKernel(rows, pattern.RowPtr, kd, sddmmRows)
}

// sddmmRows computes the entries of rows [lo, hi) for SDDMM.
func sddmmRows(kd *kernel, lo, hi int) {
	d, rp, ci, out := kd.a.Cols, kd.pattern.RowPtr, kd.pattern.ColIdx, kd.out
	ad, bd := kd.a.Data, kd.b.Data
	vec := simd.Enabled()
	for i := lo; i < hi; i++ {
		ai := ad[i*d : (i+1)*d]
		s, t := rp[i], rp[i+1]
		if vec {
			simd.SDDMMRow(ci[s:t], ai, bd, d, out[s:t])
			continue
		}
		for k := s; k < t; k++ {
			j := int(ci[k])
			out[k] = dot(ai, bd[j*d:(j+1)*d])
		}
	}
}
