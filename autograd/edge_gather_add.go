package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// EdgeGatherAdd returns the nnz×h edge scores out[k,:] = src[i,:] + dst[j,:]
// for every stored entry k = (i, j) of pattern, from per-node scores src
// (rows×h) and dst (cols×h), one column per attention head: GAT's e_ij before
// the LeakyReLU.
//
// Backward: ∂src[i,:] += Σ over row i's entries of ∂out[k,:]; ∂dst[j,:] += Σ
// over column j's entries of ∂out[k,:] (through the tape's column index, each
// output row summed by one goroutine in a fixed order).
func (t *Tape) EdgeGatherAdd(pattern *tensor.CSR, src, dst *Var) *Var {
	h := src.Cols()
	if src.Rows() != pattern.Rows || dst.Rows() != pattern.Cols || dst.Cols() != h {
		panic(fmt.Sprintf("autograd: EdgeGatherAdd pattern %s, src %s, dst %s", pattern.Shape(), src.label(), dst.label()))
	}
	o := t.op(t.Alloc(pattern.NNZ(), h), src, dst)
	o.csr = pattern
	t.Exec.ForBalancedArg(pattern.RowPtr, h, o, edgeGatherAddRows)
	return t.done(o, edgeGatherAddBack)
}

// edgeGatherAddRows computes the scores of rows [lo, hi): with 8 or 4
// heads and the vector kernels one simd.GatherAdd call a
// row, otherwise edgeGatherAddRowsGo; the same bits.
func edgeGatherAddRows(arg any, lo, hi int) {
	o := arg.(*Var)
	h := o.Value.Cols
	if h == 1 {
		edgeGatherAddRows1(o, lo, hi)
		return
	}
	if !gatherHeads(h) {
		edgeGatherAddRowsGo(o, lo, hi)
		return
	}
	rp, ci := o.csr.RowPtr, o.csr.ColIdx
	od, sd, dd := o.Value.Data, o.in[0].Value.Data, o.in[1].Value.Data
	for i := lo; i < hi; i++ {
		a, b := int(rp[i]), int(rp[i+1])
		simd.GatherAdd(h, ci[a:b], sd[h*i:h*i+h], dd, od[h*a:h*b])
	}
}

// gatherHeads reports whether EdgeGatherAdd with h heads runs in package
// simd's kernels (8 or 4 heads, a row entry's heads one vector).
func gatherHeads(h int) bool { return (h == 8 || h == 4) && simd.Enabled() }

// edgeGatherAddRowsGo is edgeGatherAddRows in Go, for any head count.
func edgeGatherAddRowsGo(o *Var, lo, hi int) {
	h, rp, ci := o.Value.Cols, o.csr.RowPtr, o.csr.ColIdx
	od, sd, dd := o.Value.Data, o.in[0].Value.Data, o.in[1].Value.Data
	for i := lo; i < hi; i++ {
		si := sd[i*h : (i+1)*h]
		for k := int(rp[i]); k < int(rp[i+1]); k++ {
			j := int(ci[k])
			ok, dj := od[k*h:(k+1)*h], dd[j*h:(j+1)*h]
			for c := range ok {
				ok[c] = si[c] + dj[c]
			}
		}
	}
}

func edgeGatherAddBack(o *Var) {
	t, src, dst, h := o.tape, o.in[0], o.in[1], o.Value.Cols
	if src.requiresGrad {
		t.grad(src)
		t.Exec.ForBalancedArg(o.csr.RowPtr, h, o, edgeGatherAddBackSrc)
	}
	if dst.requiresGrad {
		t.grad(dst)
		o.col = t.columns(o.csr)
		t.Exec.ForBalancedArg(o.col.ptr, h, o, edgeGatherAddBackDst)
	}
}

// edgeGatherAddBackSrc sums each row's entries of ∂out into ∂src: with 8
// or 4 heads and the vector kernels by simd.AddRows,
// otherwise in Go; the same bits.
func edgeGatherAddBackSrc(arg any, lo, hi int) {
	o := arg.(*Var)
	h := o.Value.Cols
	if h == 1 {
		edgeGatherAddBackSrc1(o, lo, hi)
		return
	}
	if !gatherHeads(h) {
		edgeGatherAddBackSrcGo(o, lo, hi)
		return
	}
	rp, gd, gs := o.csr.RowPtr, o.Grad.Data, o.in[0].Grad.Data
	for i := lo; i < hi; i++ {
		a, b := int(rp[i]), int(rp[i+1])
		simd.AddRows(h, b-a, nil, gd[h*a:h*b], gs[h*i:h*i+h])
	}
}

// edgeGatherAddBackSrcGo is edgeGatherAddBackSrc in Go, for any head count.
func edgeGatherAddBackSrcGo(o *Var, lo, hi int) {
	h, rp, gd, gs := o.Value.Cols, o.csr.RowPtr, o.Grad.Data, o.in[0].Grad.Data
	for i := lo; i < hi; i++ {
		gi := gs[i*h : (i+1)*h]
		for k := int(rp[i]); k < int(rp[i+1]); k++ {
			for c, g := range gd[k*h : (k+1)*h] {
				gi[c] += g
			}
		}
	}
}

// edgeGatherAddBackDst sums each column's entries of ∂out into ∂dst: with
// 8 or 4 heads and the vector kernels by simd.AddRows
// through the column index's permutation, otherwise in Go; the same bits.
func edgeGatherAddBackDst(arg any, lo, hi int) {
	o := arg.(*Var)
	h := o.Value.Cols
	if h == 1 {
		edgeGatherAddBackDst1(o, lo, hi)
		return
	}
	if !gatherHeads(h) {
		edgeGatherAddBackDstGo(o, lo, hi)
		return
	}
	cols, gd, gt := o.col, o.Grad.Data, o.in[1].Grad.Data
	for j := lo; j < hi; j++ {
		simd.AddRows(h, 0, cols.perm[cols.ptr[j]:cols.ptr[j+1]], gd, gt[h*j:h*j+h])
	}
}

// edgeGatherAddBackDstGo is edgeGatherAddBackDst in Go, for any head count.
func edgeGatherAddBackDstGo(o *Var, lo, hi int) {
	h, cols, gd, gt := o.Value.Cols, o.col, o.Grad.Data, o.in[1].Grad.Data
	for j := lo; j < hi; j++ {
		gj := gt[j*h : (j+1)*h]
		for q := cols.ptr[j]; q < cols.ptr[j+1]; q++ {
			k := int(cols.perm[q])
			for c, g := range gd[k*h : (k+1)*h] {
				gj[c] += g
			}
		}
	}
}

// edgeGatherAddRows1 is edgeGatherAddRowsGo for one head, without a slice
// per entry: the same sums.
func edgeGatherAddRows1(o *Var, lo, hi int) {
	rp, ci := o.csr.RowPtr, o.csr.ColIdx
	od, sd, dd := o.Value.Data, o.in[0].Value.Data, o.in[1].Value.Data
	for i := lo; i < hi; i++ {
		a, b := int(rp[i]), int(rp[i+1])
		si, out := sd[i:i+1], od[a:b]
		for k, j := range ci[a:b] {
			out[k] = si[0] + dd[j]
		}
	}
}

// edgeGatherAddBackSrc1 is edgeGatherAddBackSrcGo for one head, the row's
// running sum kept in a register: the same additions in the same order.
func edgeGatherAddBackSrc1(o *Var, lo, hi int) {
	rp, gd, gs := o.csr.RowPtr, o.Grad.Data, o.in[0].Grad.Data
	for i := lo; i < hi; i++ {
		s := gs[i]
		for _, g := range gd[rp[i]:rp[i+1]] {
			s += g
		}
		gs[i] = s
	}
}

// edgeGatherAddBackDst1 is edgeGatherAddBackDstGo for one head, the
// column's running sum kept in a register.
func edgeGatherAddBackDst1(o *Var, lo, hi int) {
	cols, gd, gt := o.col, o.Grad.Data, o.in[1].Grad.Data
	for j := lo; j < hi; j++ {
		s := gt[j]
		for _, k := range cols.perm[cols.ptr[j]:cols.ptr[j+1]] {
			s += gd[k]
		}
		gt[j] = s
	}
}
