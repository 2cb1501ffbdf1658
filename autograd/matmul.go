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
	out := t.Alloc(a.Rows(), b.Cols())
	tensor.Gemm(t.Exec, false, false, 1, a.Value, b.Value, 0, out)
	return t.record(out, func(o *Var) {
		if a.requiresGrad {
			tensor.Gemm(t.Exec, false, true, 1, o.Grad, b.Value, 1, t.grad(a))
		}
		if b.requiresGrad {
			tensor.Gemm(t.Exec, true, false, 1, a.Value, o.Grad, 1, t.grad(b))
		}
	}, a, b)
}
