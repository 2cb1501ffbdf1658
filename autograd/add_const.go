package autograd

// AddConst returns x + c for a constant c added to every element.
//
// Backward: ∂x += ∂out.
func (t *Tape) AddConst(x *Var, c float32) *Var {
	return t.elementwise(x, 1, c, addConstForward, addGrad)
}

// addConstForward is kept out of line: AlphaMix calls it with a constant c, which
// inlined would let the compiler fold c = −1 into a negation (flipping a
// NaN's sign, where the multiplication of the elementwise path keeps it).
//
//go:noinline
func addConstForward(c float32, y, x []float32) {
	for i, v := range x {
		y[i] = v + c
	}
}

// addGrad is the backward of operations with unit derivative: ∂x += ∂out.
// addGrad is kept out of line: AlphaMix calls it with a constant c, which
// inlined would let the compiler fold c = −1 into a negation (flipping a
// NaN's sign, where the multiplication of the elementwise path keeps it).
//
//go:noinline
func addGrad(_ float32, gx, gy, _, _ []float32) {
	for i, g := range gy {
		gx[i] += g
	}
}
