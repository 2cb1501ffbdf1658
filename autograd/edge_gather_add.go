package autograd

import (
	"fmt"

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
	out := t.Alloc(pattern.NNZ(), h)
	od, sd, dd := out.Data, src.Value.Data, dst.Value.Data
	rp, ci := pattern.RowPtr, pattern.ColIdx
	t.Exec.ForBalanced(rp, h, func(lo, hi int) {
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
	})
	return t.record(out, func(o *Var) {
		gd := o.Grad.Data
		if src.requiresGrad {
			gs := t.grad(src).Data
			t.Exec.ForBalanced(rp, h, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					gi := gs[i*h : (i+1)*h]
					for k := int(rp[i]); k < int(rp[i+1]); k++ {
						for c, g := range gd[k*h : (k+1)*h] {
							gi[c] += g
						}
					}
				}
			})
		}
		if dst.requiresGrad {
			gt := t.grad(dst).Data
			cols := t.columns(pattern)
			t.Exec.ForBalanced(cols.ptr, h, func(lo, hi int) {
				for j := lo; j < hi; j++ {
					gj := gt[j*h : (j+1)*h]
					for q := cols.ptr[j]; q < cols.ptr[j+1]; q++ {
						k := int(cols.perm[q])
						for c, g := range gd[k*h : (k+1)*h] {
							gj[c] += g
						}
					}
				}
			})
		}
	}, src, dst)
}
