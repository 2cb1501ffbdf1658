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
	t.Exec.For(rows, rows*cols, func(lo, hi int) { mulRows(k, bd, ad, od, lo, hi, cols, false) })
	return t.record(out, func(o *Var) {
		if a.requiresGrad {
			ga, gd := t.grad(a).Data, o.Grad.Data
			t.Exec.For(rows, rows*cols, func(lo, hi int) { mulRows(k, bd, gd, ga, lo, hi, cols, true) })
		}
		if b.requiresGrad {
			reduceInto(t.Exec, k, o.Grad, t.grad(b), ad, 1)
		}
	}, a, b)
}

// mulRows writes (or, with acc, adds) x ⊙ b into y for rows lo..hi-1, b
// broadcast as k says.
func mulRows(k bcast, bd, x, y []float32, lo, hi, cols int, acc bool) {
	for i := lo; i < hi; i++ {
		xr, yr := x[i*cols:(i+1)*cols], y[i*cols:(i+1)*cols]
		br, c := rowOperand(k, bd, i, cols)
		switch {
		case br == nil && acc:
			for j, v := range xr {
				yr[j] += v * c
			}
		case br == nil:
			for j, v := range xr {
				yr[j] = v * c
			}
		case acc:
			br = br[:len(xr)]
			for j, v := range xr {
				yr[j] += v * br[j]
			}
		default:
			br = br[:len(xr)]
			for j, v := range xr {
				yr[j] = v * br[j]
			}
		}
	}
}
