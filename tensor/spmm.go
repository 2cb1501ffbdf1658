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
	n := b.Cols
	vec := simd.Enabled()
	e.forDynamicBalanced(rowPtr, n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			ci := c.Data[i*n : (i+1)*n]
			scaleRow(ci, beta)
			if alpha == 0 {
				continue
			}
			s, t := rowPtr[i], rowPtr[i+1]
			if vec {
				if perm != nil {
					simd.SpMMRow(alpha, colIdx[s:t], val, perm[s:t], b.Data, n, ci)
				} else {
					simd.SpMMRow(alpha, colIdx[s:t], val[s:t], nil, b.Data, n, ci)
				}
				continue
			}
			for k := s; k < t; k++ {
				v := val[k]
				if perm != nil {
					v = val[perm[k]]
				}
				j := int(colIdx[k])
				axpy(alpha*v, b.Data[j*n:(j+1)*n], ci)
			}
		}
	})
}

// SDDMM computes, for every stored entry k = (i, j) of pattern, out[k] =
// ⟨a[i,:], b[j,:]⟩ (a sampled dense-dense product, as in attention scores).
func SDDMM(e Exec, pattern *CSR, a, b *Dense, out []float32) {
	if a.Rows != pattern.Rows || b.Rows != pattern.Cols || a.Cols != b.Cols || len(out) != pattern.NNZ() {
		panic(fmt.Sprintf("tensor: SDDMM shape mismatch: pattern %s, a %s, b %s, out %d", pattern.Shape(), a.Shape(), b.Shape(), len(out)))
	}
	pattern.checkIndices()
	d := a.Cols
	vec := simd.Enabled()
	e.forDynamicBalanced(pattern.RowPtr, d, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			ai := a.Data[i*d : (i+1)*d]
			s, t := pattern.RowPtr[i], pattern.RowPtr[i+1]
			if vec {
				simd.SDDMMRow(pattern.ColIdx[s:t], ai, b.Data, d, out[s:t])
				continue
			}
			for k := s; k < t; k++ {
				j := int(pattern.ColIdx[k])
				out[k] = dot(ai, b.Data[j*d:(j+1)*d])
			}
		}
	})
}
