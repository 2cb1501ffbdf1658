package autograd

import (
	"fmt"
	"math"

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
	if h == 1 {
		tensor.RowSoftmax(t.Exec, pattern, sd, od)
	} else {
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
						e := float32(math.Exp(float64(sd[k*h+c] - m)))
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
			for i := lo; i < hi; i++ {
				a, b := int(rp[i]), int(rp[i+1])
				for c := 0; c < h; c++ {
					var dot float32
					for k := a; k < b; k++ {
						dot += od[k*h+c] * gy[k*h+c]
					}
					for k := a; k < b; k++ {
						gs[k*h+c] += od[k*h+c] * (gy[k*h+c] - dot)
					}
				}
			}
		})
	}, scores)
}
