package autograd

import "fmt"

// Gather returns the len(idx)×cols matrix whose row q is row idx[q] of x
// (index select; idx may repeat rows).
//
// Backward: ∂x[idx[q],:] += ∂out[q,:], accumulated serially in q order so that
// repeated indices never race and the sum order is fixed.
func (t *Tape) Gather(x *Var, idx []int32) *Var {
	cols := x.Cols()
	for _, i := range idx {
		if i < 0 || int(i) >= x.Rows() {
			panic(fmt.Sprintf("autograd: Gather row %d outside %s", i, x.label()))
		}
	}
	out := t.Alloc(len(idx), cols)
	xd, od := x.Value.Data, out.Data
	t.Exec.For(len(idx), len(od), func(lo, hi int) {
		for q := lo; q < hi; q++ {
			i := int(idx[q])
			copy(od[q*cols:(q+1)*cols], xd[i*cols:(i+1)*cols])
		}
	})
	return t.record(out, func(o *Var) {
		gx, gy := t.grad(x).Data, o.Grad.Data
		for q, i := range idx {
			gr := gx[int(i)*cols : (int(i)+1)*cols]
			for j, g := range gy[q*cols : (q+1)*cols] {
				gr[j] += g
			}
		}
	}, x)
}
