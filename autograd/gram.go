package autograd

import "github.com/pcgcn/pcgcn/tensor"

// Gram returns xᵀ·x (d×d for x n×d), the Gram matrix of x's columns.
//
// Backward: ∂x += x·(∂out + ∂outᵀ).
func (t *Tape) Gram(x *Var) *Var {
	d := x.Cols()
	o := t.op(t.Alloc(d, d), x, nil)
	tensor.Gemm(t.Exec, true, false, 1, x.Value, x.Value, 0, o.Value)
	return t.done(o, gramBack)
}

func gramBack(o *Var) {
	t, x := o.tape, o.in[0]
	gx := t.grad(x)
	tensor.Gemm(t.Exec, false, false, 1, x.Value, o.Grad, 1, gx)
	tensor.Gemm(t.Exec, false, true, 1, x.Value, o.Grad, 1, gx)
}
