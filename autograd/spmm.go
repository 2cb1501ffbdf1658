package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/tensor"
)

// SpMM returns a·x for a fixed (non-differentiable) sparse matrix a: the
// propagation Â·H, or the product X·W of sparse input features with a weight.
//
// Backward: ∂x += aᵀ·∂out (tensor.SpMMT, which uses a itself when a is marked
// symmetric, so a's values must really be symmetric then). A matrix from
// DropoutCSR is multiplied both ways over its non-zero values only, where
// tensor.SpMMSkipZeros finds that exact.
func (t *Tape) SpMM(a *tensor.CSR, x *Var) *Var {
	if a.Cols != x.Rows() {
		panic(fmt.Sprintf("autograd: SpMM %s · %s", a.Shape(), x.label()))
	}
	o := t.op(t.Alloc(a.Rows, x.Cols()), x, nil)
	o.csr = a
	if t.dropped(a) { // mostly zeros: those are skipped where that is exact
		tensor.SpMMSkipZeros(t.Exec, 1, a, x.Value, 0, o.Value, &t.zskip)
		return t.done(o, spmmBack)
	}
	tensor.SpMM(t.Exec, 1, a, x.Value, 0, o.Value)
	return t.done(o, spmmBack)
}

func spmmBack(o *Var) {
	t, x := o.tape, o.in[0]
	g, beta := t.gradFor(x)
	if t.dropped(o.csr) {
		tensor.SpMMTSkipZeros(t.Exec, 1, o.csr, o.Grad, beta, g, &t.zskip)
		return
	}
	tensor.SpMMT(t.Exec, 1, o.csr, o.Grad, beta, g)
}
