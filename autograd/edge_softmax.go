package autograd

import (
	"fmt"

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
	out := t.Alloc(pattern.NNZ(), h)
	sd, od := scores.Value.Data, out.Data
	rp := pattern.RowPtr
	switch {
	case h == 1:
		tensor.RowSoftmax(t.Exec, pattern, sd, od)
	case h <= maxStackHeads:
		t.Exec.ForBalanced(rp, 8*h, func(lo, hi int) {
			// edge-major: one pass over a row's entries updates every head,
			// instead of h strided passes
			var mb [maxStackHeads]float32
			var sb [maxStackHeads]float64
			m, sum := mb[:h], sb[:h]
			for i := lo; i < hi; i++ {
				a, b := int(rp[i]), int(rp[i+1])
				if a == b {
					continue
				}
				copy(m, sd[a*h:(a+1)*h])
				for k := a + 1; k < b; k++ {
					for c, v := range sd[k*h : (k+1)*h] {
						m[c] = max(m[c], v)
					}
				}
				clear(sum)
				for k := a; k < b; k++ {
					row, orow := sd[k*h:(k+1)*h], od[k*h:(k+1)*h]
					for c, v := range row {
						e := float32(tensor.ExpNonPos(float64(v - m[c])))
						orow[c] = e
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
		})
	default:
		t.Exec.ForBalanced(rp, 8*h, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				a, b := int(rp[i]), int(rp[i+1])
				if a == b {
					continue
				}
				for c := 0; c < h; c++ {
					m := sd[a*h+c]
					for k := a + 1; k < b; k++ {
						m = max(m, sd[k*h+c])
					}
					var s float64
					for k := a; k < b; k++ {
						e := float32(tensor.ExpNonPos(float64(sd[k*h+c] - m)))
						od[k*h+c] = e
						s += float64(e)
					}
					inv := float32(1 / s)
					for k := a; k < b; k++ {
						od[k*h+c] *= inv
					}
				}
			}
		})
	}
	return t.record(out, func(o *Var) {
		gy, gs := o.Grad.Data, t.grad(scores).Data
		t.Exec.ForBalanced(rp, 2*h, func(lo, hi int) {
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
		})
	}, scores)
}

// maxStackHeads is the number of attention heads up to which EdgeSoftmax
// keeps its per-head sums on the stack.
const maxStackHeads = 16
