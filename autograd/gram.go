package autograd

import "github.com/pcgcn/pcgcn/tensor"

// Gram returns xᵀ·x (d×d for x n×d), the Gram matrix of x's columns.
//
// Backward: ∂x += x·(∂out + ∂outᵀ).
func (t *Tape) Gram(x *Var) *Var {
	d := x.Cols()
	out := t.Alloc(d, d)
	tensor.Gemm(t.Exec, true, false, 1, x.Value, x.Value, 0, out)
	return t.record(out, func(o *Var) {
		gx := t.grad(x)
		tensor.Gemm(t.Exec, false, false, 1, x.Value, o.Grad, 1, gx)
		tensor.Gemm(t.Exec, false, true, 1, x.Value, o.Grad, 1, gx)
	}, x)
}
