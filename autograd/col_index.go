package autograd

import (
	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// colIndex lists the stored entries of a sparse pattern column by column:
// the entries of column j are at CSR positions perm[ptr[j]:ptr[j+1]], in
// increasing row order, and row[q] is the row of entry perm[q]. Backward
// passes use it to sum edge quantities per column (source node) without racing
// writes: every output row is owned by one goroutine.
type colIndex struct {
	ptr, perm, row []int32
}

// patternKey identifies a CSR pattern by its index storage, which
// tensor.CSR.WithValues shares, so a pattern with new values hits the cache.
type patternKey struct {
	rowPtr, col     *int32
	nnz, rows, cols int
}

// keyOf returns p's cache key.
func keyOf(p *tensor.CSR) patternKey {
	key := patternKey{rowPtr: &p.RowPtr[0], nnz: p.NNZ(), rows: p.Rows, cols: p.Cols}
	if key.nnz > 0 {
		key.col = &p.ColIdx[0]
	}
	return key
}

// maxCachedPatterns bounds the tape's column-index cache; patterns are
// expected to be few and long-lived (the graph's adjacency and its variants).
const maxCachedPatterns = 64

// columns returns p's column index, built on first use and cached on the tape.
func (t *Tape) columns(p *tensor.CSR) *colIndex {
	key := keyOf(p)
	if ci, ok := t.cols[key]; ok {
		return ci
	}
	ptr := make([]int32, p.Cols+1)
	for _, c := range p.ColIdx {
		ptr[c+1]++
	}
	for j := 0; j < p.Cols; j++ {
		ptr[j+1] += ptr[j]
	}
	next := append([]int32(nil), ptr[:p.Cols]...)
	perm := make([]int32, key.nnz)
	row := make([]int32, key.nnz)
	for i := 0; i < p.Rows; i++ {
		for k := p.RowPtr[i]; k < p.RowPtr[i+1]; k++ {
			c := p.ColIdx[k]
			perm[next[c]], row[next[c]] = k, int32(i)
			next[c]++
		}
	}
	ci := &colIndex{ptr: ptr, perm: perm, row: row}
	if t.cols == nil || len(t.cols) >= maxCachedPatterns {
		t.cols = map[patternKey]*colIndex{}
	}
	t.cols[key] = ci
	return ci
}

// edgeArgs are the operands of spmmTCols, kept in the tape (one call at a
// time) so that its parallel loop allocates nothing.
type edgeArgs struct {
	ci   *colIndex
	vals []float32
	b, c *tensor.Dense
}

// spmmTCols computes c += pᵀ·b where p is the pattern of ci with values vals
// (in p's CSR order): c[j,:] += Σ over entries k=(i,j) of vals[k]·b[i,:].
// Unlike tensor.SpMMT it ignores the pattern's symmetric mark, which describes
// the original values, not vals. Parallel over rows of c, deterministic.
func (t *Tape) spmmTCols(ci *colIndex, vals []float32, b, c *tensor.Dense) {
	t.edge = edgeArgs{ci: ci, vals: vals, b: b, c: c}
	t.Exec.ForBalancedArg(ci.ptr, b.Cols, &t.edge, spmmTColsRows)
	t.edge = edgeArgs{}
}

func spmmTColsRows(arg any, lo, hi int) {
	e := arg.(*edgeArgs)
	ci, vals, n, bd, cd := e.ci, e.vals, e.b.Cols, e.b.Data, e.c.Data
	vec := simd.Enabled()
	for j := lo; j < hi; j++ {
		cj := cd[j*n : (j+1)*n]
		if s, t := ci.ptr[j], ci.ptr[j+1]; vec && s < t {
			// the vector row kernel of tensor.SpMM: the entries' sum in
			// order, then added to c[j,:]
			simd.SpMMRow(1, ci.row[s:t], vals, ci.perm[s:t], bd, n, cj)
			continue
		}
		for q := ci.ptr[j]; q < ci.ptr[j+1]; q++ {
			v := vals[ci.perm[q]]
			i := int(ci.row[q])
			bi := bd[i*n : (i+1)*n]
			for x, bv := range bi {
				cj[x] += v * bv
			}
		}
	}
}
