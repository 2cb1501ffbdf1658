package autograd

// SumRows returns the 1×cols column sums of x (the sum of its rows),
// accumulated in float64 over rows in increasing order.
//
// Backward: ∂x[i,:] += ∂out for every row i.
func (t *Tape) SumRows(x *Var) *Var {
	rows, cols := x.Rows(), x.Cols()
	out := t.Alloc(1, cols)
	xd, od := x.Value.Data, out.Data
	t.Exec.For(cols, len(xd), func(lo, hi int) {
		for j := lo; j < hi; j++ {
			var s float64
			for p := j; p < len(xd); p += cols {
				s += float64(xd[p])
			}
			od[j] = float32(s)
		}
	})
	return t.record(out, func(o *Var) {
		gx, gy := t.grad(x).Data, o.Grad.Data
		t.Exec.For(rows, len(gx), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				for j, g := range gy {
					gx[i*cols+j] += g
				}
			}
		})
	}, x)
}
