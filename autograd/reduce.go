package autograd

// Sum returns the 1×1 sum of all elements of x (accumulated in float64).
//
// Backward: ∂x += ∂out (broadcast).
func (t *Tape) Sum(x *Var) *Var {
	return t.reduce(x, 1)
}

// Mean returns the 1×1 mean of all elements of x (0 for an empty x).
//
// Backward: ∂x += ∂out / len(x).
func (t *Tape) Mean(x *Var) *Var {
	n := x.Value.Len()
	if n == 0 {
		return t.reduce(x, 0)
	}
	return t.reduce(x, 1/float64(n))
}

// reduce returns scale·Σx as a 1×1 variable.
func (t *Tape) reduce(x *Var, scale float64) *Var {
	o := t.op(t.Alloc(1, 1), x, nil)
	var s float64
	for _, v := range x.Value.Data {
		s += float64(v)
	}
	o.s = scale
	o.Value.Data[0] = float32(s * scale)
	return t.done(o, reduceBack)
}

func reduceBack(o *Var) {
	o.tape.grad(o.in[0])
	n := o.in[0].Value.Len()
	o.tape.Exec.ForArg(n, n, o, reduceBackRange)
}

func reduceBackRange(arg any, lo, hi int) {
	o := arg.(*Var)
	g, gx := o.Grad.Data[0]*float32(o.s), o.in[0].Grad.Data
	for i := lo; i < hi; i++ {
		gx[i] += g
	}
}
