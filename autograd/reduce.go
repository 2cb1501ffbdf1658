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
	out := t.Alloc(1, 1)
	var s float64
	for _, v := range x.Value.Data {
		s += float64(v)
	}
	out.Data[0] = float32(s * scale)
	return t.record(out, func(o *Var) {
		g := o.Grad.Data[0] * float32(scale)
		gx := t.grad(x).Data
		t.Exec.For(len(gx), len(gx), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				gx[i] += g
			}
		})
	}, x)
}
