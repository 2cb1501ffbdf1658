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
	out := t.Alloc(a.Rows(), b.Rows())
	tensor.Gemm(t.Exec, false, true, 1, a.Value, b.Value, 0, out)
	return t.record(out, func(o *Var) {
		if a.requiresGrad {
			tensor.Gemm(t.Exec, false, false, 1, o.Grad, b.Value, 1, t.grad(a))
		}
		if b.requiresGrad {
			tensor.Gemm(t.Exec, true, false, 1, o.Grad, a.Value, 1, t.grad(b))
		}
	}, a, b)
}
