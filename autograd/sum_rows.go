package autograd

// SumRows returns the 1×cols column sums of x (the sum of its rows),
// accumulated in float64 over rows in increasing order.
//
// Backward: ∂x[i,:] += ∂out for every row i.
func (t *Tape) SumRows(x *Var) *Var {
	o := t.op(t.Alloc(1, x.Cols()), x, nil)
	t.Exec.ForArg(x.Cols(), x.Value.Len(), o, sumRowsCols)
	return t.done(o, sumRowsBack)
}

func sumRowsCols(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, xd, od := o.Value.Cols, o.in[0].Value.Data, o.Value.Data
	for j := lo; j < hi; j++ {
		var s float64
		for p := j; p < len(xd); p += cols {
			s += float64(xd[p])
		}
		od[j] = float32(s)
	}
}

func sumRowsBack(o *Var) {
	x := o.in[0]
	o.tape.grad(x)
	o.tape.Exec.ForArg(x.Value.Rows, x.Value.Len(), o, sumRowsBackRows)
}

func sumRowsBackRows(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, gx, gy := o.Value.Cols, o.in[0].Grad.Data, o.Grad.Data
	for i := lo; i < hi; i++ {
		for j, g := range gy {
			gx[i*cols+j] += g
		}
	}
}
