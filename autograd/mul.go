package autograd

// Mul returns the element-wise product a ⊙ b with the broadcasting of Add (b
// may be a learnable 1×1 scalar, a row or a column vector).
//
// Backward: ∂a += ∂out ⊙ b (b broadcast); ∂b += (∂out ⊙ a) summed over the
// broadcast axes.
func (t *Tape) Mul(a, b *Var) *Var {
	k := broadcastKind("Mul", a, b)
	rows, cols := a.Rows(), a.Cols()
	out := t.Alloc(rows, cols)
	ad, bd, od := a.Value.Data, b.Value.Data, out.Data
	t.Exec.For(rows, rows*cols, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			for j := 0; j < cols; j++ {
				p := i*cols + j
				od[p] = ad[p] * bd[bIndex(k, i, j, cols)]
			}
		}
	})
	return t.record(out, func(o *Var) {
		if a.requiresGrad {
			ga, gd := t.grad(a).Data, o.Grad.Data
			t.Exec.For(rows, rows*cols, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					for j := 0; j < cols; j++ {
						p := i*cols + j
						ga[p] += gd[p] * bd[bIndex(k, i, j, cols)]
					}
				}
			})
		}
		if b.requiresGrad {
			reduceInto(t.Exec, k, o.Grad, t.grad(b), ad, 1)
		}
	}, a, b)
}
