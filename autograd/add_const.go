package autograd

// AddConst returns x + c for a constant c added to every element.
//
// Backward: ∂x += ∂out.
func (t *Tape) AddConst(x *Var, c float32) *Var {
	return t.elementwise(x, 1, c, addConstForward, addGrad)
}

func addConstForward(c float32, y, x []float32) {
	for i, v := range x {
		y[i] = v + c
	}
}

// addGrad is the backward of operations with unit derivative: ∂x += ∂out.
func addGrad(_ float32, gx, gy, _, _ []float32) {
	for i, g := range gy {
		gx[i] += g
	}
}
