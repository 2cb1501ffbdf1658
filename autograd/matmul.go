package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/tensor"
)

// MatMul returns a·b.
//
// Backward: ∂a += ∂out·bᵀ, ∂b += aᵀ·∂out.
func (t *Tape) MatMul(a, b *Var) *Var {
	if a.Cols() != b.Rows() {
		panic(fmt.Sprintf("autograd: MatMul %s · %s", a.label(), b.label()))
	}
	o := t.op(t.Alloc(a.Rows(), b.Cols()), a, b)
	tensor.Gemm(t.Exec, false, false, 1, a.Value, b.Value, 0, o.Value)
	return t.done(o, matMulBack)
}

func matMulBack(o *Var) {
	t, a, b := o.tape, o.in[0], o.in[1]
	if a.requiresGrad {
		g, beta := t.gradFor(a)
		tensor.Gemm(t.Exec, false, true, 1, o.Grad, b.Value, beta, g)
	}
	if b.requiresGrad {
		g, beta := t.gradFor(b)
		tensor.Gemm(t.Exec, true, false, 1, a.Value, o.Grad, beta, g)
	}
}
