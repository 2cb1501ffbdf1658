package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/tensor"
)

// MatMulNT returns a·bᵀ for a n×d and b m×d (n×m), e.g. the similarities
// S = H·Pᵀ of node embeddings to class prototypes.
//
// Backward: ∂a += ∂out·b, ∂b += ∂outᵀ·a.
func (t *Tape) MatMulNT(a, b *Var) *Var {
	if a.Cols() != b.Cols() {
		panic(fmt.Sprintf("autograd: MatMulNT %s · (%s)ᵀ", a.label(), b.label()))
	}
	o := t.op(t.Alloc(a.Rows(), b.Rows()), a, b)
	tensor.Gemm(t.Exec, false, true, 1, a.Value, b.Value, 0, o.Value)
	return t.done(o, matMulNTBack)
}

func matMulNTBack(o *Var) {
	t, a, b := o.tape, o.in[0], o.in[1]
	if a.requiresGrad {
		g, beta := t.gradFor(a)
		tensor.Gemm(t.Exec, false, false, 1, o.Grad, b.Value, beta, g)
	}
	if b.requiresGrad {
		g, beta := t.gradFor(b)
		tensor.Gemm(t.Exec, true, false, 1, o.Grad, a.Value, beta, g)
	}
}
