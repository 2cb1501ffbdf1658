package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
)

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
	o := t.op(t.Alloc(len(idx), cols), x, nil)
	o.idx = idx
	t.Exec.ForArg(len(idx), len(idx)*cols, o, gatherRows)
	return t.done(o, gatherBack)
}

func gatherRows(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, xd, od := o.Value.Cols, o.in[0].Value.Data, o.Value.Data
	for q := lo; q < hi; q++ {
		i := int(o.idx[q])
		copy(od[q*cols:(q+1)*cols], xd[i*cols:(i+1)*cols])
	}
}

func gatherBack(o *Var) {
	cols := o.Value.Cols
	gx, gy := o.tape.grad(o.in[0]).Data, o.Grad.Data
	// gr[j] += g compiles (default GOAMD64 level) to ADDSS with g as first
	// operand: simd.AXPY with c = 1, packed (TestGatherBackVectorMatchesGo)
	vec := simd.Enabled() && !goFusesFMA
	for q, i := range o.idx {
		gr := gx[int(i)*cols : (int(i)+1)*cols]
		if vec {
			simd.AXPY(1, gy[q*cols:(q+1)*cols], gr)
			continue
		}
		for j, g := range gy[q*cols : (q+1)*cols] {
			gr[j] += g
		}
	}
}
