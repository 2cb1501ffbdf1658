package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// EdgeSoftmax returns the softmax of the nnz×h edge scores over each row's
// stored entries of pattern, separately for each column (attention head):
// out[k,c] = exp(s[k,c]) / Σ_{k' in row i} exp(s[k',c]), computed stably.
// Rows without entries contribute nothing.
//
// Backward: ∂s[k,c] += out[k,c]·(∂out[k,c] − Σ_{k' in row i} out[k',c]·∂out[k',c]).
func (t *Tape) EdgeSoftmax(pattern *tensor.CSR, scores *Var) *Var {
	h := scores.Cols()
	if scores.Rows() != pattern.NNZ() {
		panic(fmt.Sprintf("autograd: EdgeSoftmax pattern %s, scores %s", pattern.Shape(), scores.label()))
	}
	o := t.op(t.Alloc(pattern.NNZ(), h), scores, nil)
	o.csr = pattern
	switch {
	case h == 1:
		tensor.RowSoftmax(t.Exec, pattern, scores.Value.Data, o.Value.Data)
	case vectorHeads(h):
		t.Exec.ForBalancedArg(pattern.RowPtr, 8*h, o, edgeSoftmaxHeadsVec)
	case h <= maxStackHeads:
		t.Exec.ForBalancedArg(pattern.RowPtr, 8*h, o, edgeSoftmaxHeads)
	default:
		t.Exec.ForBalancedArg(pattern.RowPtr, 8*h, o, edgeSoftmaxManyHeads)
	}
	return t.done(o, edgeSoftmaxBack)
}

// expBatch is the number of edge scores (entries × heads) the forward pass
// shifts before exponentiating them with one vector call: rows are batched
// until they hold this many, so that short rows share the call's overhead
// and a batch stays in the L1/L2 cache between the three passes.
const expBatch = 2048

// edgeSoftmaxHeads is the forward pass on rows [lo, hi) for up to
// maxStackHeads heads, edge-major (one pass over a row's entries updates
// every head, instead of h strided passes), in batches of rows: each row's
// scores minus its per-head maximum are written to the output, the batch is
// exponentiated in place by tensor.ExpNonPosSlice, and each row is divided
// by its per-head sums.
func edgeSoftmaxHeads(arg any, lo, hi int) {
	o := arg.(*Var)
	h, rp, sd, od := o.Value.Cols, o.csr.RowPtr, o.in[0].Value.Data, o.Value.Data
	var mb [maxStackHeads]float32
	var sb [maxStackHeads]float64
	m, sum := mb[:h], sb[:h]
	for first := lo; first < hi; {
		last := first
		for ; last < hi && int(rp[last]-rp[first])*h < expBatch; last++ {
			a, b := int(rp[last]), int(rp[last+1])
			if a == b {
				continue
			}
			copy(m, sd[a*h:(a+1)*h])
			for k := a + 1; k < b; k++ {
				for c, v := range sd[k*h : (k+1)*h] {
					m[c] = max(m[c], v)
				}
			}
			for k := a; k < b; k++ {
				row, orow := sd[k*h:(k+1)*h], od[k*h:(k+1)*h]
				for c, v := range row {
					orow[c] = v - m[c]
				}
			}
		}
		tensor.ExpNonPosSlice(od[int(rp[first])*h : int(rp[last])*h])
		for i := first; i < last; i++ {
			a, b := int(rp[i]), int(rp[i+1])
			clear(sum)
			for k := a; k < b; k++ {
				for c, e := range od[k*h : (k+1)*h] {
					sum[c] += float64(e)
				}
			}
			for c := range m {
				m[c] = float32(1 / sum[c]) // m now holds the inverses
			}
			for k := a; k < b; k++ {
				orow := od[k*h : (k+1)*h]
				for c := range orow {
					orow[c] *= m[c]
				}
			}
		}
		first = last
	}
}

// vectorHeads reports whether the edge softmax of h heads runs in package
// simd's kernels (8 or 4 heads, one row entry's heads a vector).
func vectorHeads(h int) bool {
	return (h == 8 || h == 4) && simd.Enabled() && !goFusesFMA
}

// edgeSoftmaxHeadsVec is edgeSoftmaxHeads for 8 or 4 heads with a row's
// passes in vector kernels (simd.EdgeSoftmaxPre and simd.EdgeSoftmaxPost:
// the packed form of its Go loops' operations),
// batched the same way: the same bits.
func edgeSoftmaxHeadsVec(arg any, lo, hi int) {
	o := arg.(*Var)
	h, rp, sd, od := o.Value.Cols, o.csr.RowPtr, o.in[0].Value.Data, o.Value.Data
	for first := lo; first < hi; {
		last := first
		for ; last < hi && int(rp[last]-rp[first])*h < expBatch; last++ {
			if a, b := h*int(rp[last]), h*int(rp[last+1]); a < b {
				simd.EdgeSoftmaxPre(h, sd[a:b], od[a:b])
			}
		}
		tensor.ExpNonPosSlice(od[int(rp[first])*h : int(rp[last])*h])
		for i := first; i < last; i++ {
			if a, b := h*int(rp[i]), h*int(rp[i+1]); a < b {
				simd.EdgeSoftmaxPost(h, od[a:b])
			}
		}
		first = last
	}
}

// edgeSoftmaxManyHeads is the forward pass for more heads, head by head,
// batched like edgeSoftmaxHeads.
func edgeSoftmaxManyHeads(arg any, lo, hi int) {
	o := arg.(*Var)
	h, rp, sd, od := o.Value.Cols, o.csr.RowPtr, o.in[0].Value.Data, o.Value.Data
	for first := lo; first < hi; {
		last := first
		for ; last < hi && int(rp[last]-rp[first])*h < expBatch; last++ {
			a, b := int(rp[last]), int(rp[last+1])
			for c := 0; a < b && c < h; c++ {
				m := sd[a*h+c]
				for k := a + 1; k < b; k++ {
					m = max(m, sd[k*h+c])
				}
				for k := a; k < b; k++ {
					od[k*h+c] = sd[k*h+c] - m
				}
			}
		}
		tensor.ExpNonPosSlice(od[int(rp[first])*h : int(rp[last])*h])
		for i := first; i < last; i++ {
			a, b := int(rp[i]), int(rp[i+1])
			for c := 0; a < b && c < h; c++ {
				var s float64
				for k := a; k < b; k++ {
					s += float64(od[k*h+c])
				}
				inv := float32(1 / s)
				for k := a; k < b; k++ {
					od[k*h+c] *= inv
				}
			}
		}
		first = last
	}
}

func edgeSoftmaxBack(o *Var) {
	t := o.tape
	if vectorHeads(o.Value.Cols) {
		// the kernel writes every element: a first gradient needs no
		// zeroing (it adds the updates to +0 itself)
		if _, beta := t.gradFor(o.in[0]); beta == 0 {
			t.Exec.ForBalancedArg(o.csr.RowPtr, 2*o.Value.Cols, o, edgeSoftmaxBackRowsFirst)
			return
		}
	} else {
		t.grad(o.in[0])
	}
	t.Exec.ForBalancedArg(o.csr.RowPtr, 2*o.Value.Cols, o, edgeSoftmaxBackRows)
}

// edgeSoftmaxBackRowsFirst is edgeSoftmaxBackRows for 8 or 4 heads into a
// new, unzeroed gradient buffer: the updates added to +0, a zeroed buffer's
// bits.
func edgeSoftmaxBackRowsFirst(arg any, lo, hi int) {
	edgeSoftmaxBackRowsVec(arg.(*Var), lo, hi, true)
}

// edgeSoftmaxBackRows adds the gradient of rows [lo, hi): with 8 or 4 heads
// and the vector kernels by simd.EdgeSoftmaxBack, the
// packed form of edgeSoftmaxBackRowsGo's operations (the same bits).
func edgeSoftmaxBackRows(arg any, lo, hi int) {
	o := arg.(*Var)
	switch {
	case o.Value.Cols == 1 && simd.Enabled() && !goFusesFMA:
		edgeSoftmaxBackRows1(o, lo, hi)
	case vectorHeads(o.Value.Cols):
		edgeSoftmaxBackRowsVec(o, lo, hi, false)
	default:
		edgeSoftmaxBackRowsGo(o, lo, hi)
	}
}

// edgeSoftmaxBackRowsVec runs the 8- or 4-head backward kernel on each row
// of [lo, hi), with first onto +0 (see simd.EdgeSoftmaxBack).
func edgeSoftmaxBackRowsVec(o *Var, lo, hi int, first bool) {
	h, rp, od, gy, gs := o.Value.Cols, o.csr.RowPtr, o.Value.Data, o.Grad.Data, o.in[0].Grad.Data
	for i := lo; i < hi; i++ {
		a, b := h*int(rp[i]), h*int(rp[i+1])
		simd.EdgeSoftmaxBack(h, od[a:b], gy[a:b], gs[a:b], first)
	}
}

// edgeSoftmaxBackRowsGo is edgeSoftmaxBackRows in Go, for any head count.
func edgeSoftmaxBackRowsGo(o *Var, lo, hi int) {
	h, rp, od, gy, gs := o.Value.Cols, o.csr.RowPtr, o.Value.Data, o.Grad.Data, o.in[0].Grad.Data
	var db [maxStackHeads]float32
	dot := db[:]
	if h > maxStackHeads {
		dot = make([]float32, h)
	}
	dot = dot[:h]
	for i := lo; i < hi; i++ {
		a, b := int(rp[i]), int(rp[i+1])
		clear(dot)
		for k := a; k < b; k++ {
			orow, grow := od[k*h:(k+1)*h], gy[k*h:(k+1)*h]
			for c, v := range orow {
				dot[c] += v * grow[c]
			}
		}
		for k := a; k < b; k++ {
			orow, grow, srow := od[k*h:(k+1)*h], gy[k*h:(k+1)*h], gs[k*h:(k+1)*h]
			for c, v := range orow {
				srow[c] += v * (grow[c] - dot[c])
			}
		}
	}
}

// maxStackHeads is the number of attention heads up to which EdgeSoftmax
// keeps its per-head sums on the stack.
const maxStackHeads = 16

// edgeSoftmaxBackRows1 is edgeSoftmaxBackRowsGo for one head through
// simd.EdgeSoftmaxBack1 (its operations, the update eight entries at a time).
func edgeSoftmaxBackRows1(o *Var, lo, hi int) {
	rp, od, gy, gs := o.csr.RowPtr, o.Value.Data, o.Grad.Data, o.in[0].Grad.Data
	for i := lo; i < hi; i++ {
		a, b := int(rp[i]), int(rp[i+1])
		simd.EdgeSoftmaxBack1(od[a:b], gy[a:b], gs[a:b])
	}
}
