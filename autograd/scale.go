package autograd

// Scale returns c·x for a constant c.
//
// Backward: ∂x += c·∂out.
func (t *Tape) Scale(x *Var, c float32) *Var {
	return t.elementwise(x, 1, c, scaleForward, scaleBackward)
}

func scaleForward(c float32, y, x []float32) {
	for i, v := range x {
		y[i] = c * v
	}
}

func scaleBackward(c float32, gx, gy, _, _ []float32) {
	for i, g := range gy {
		gx[i] += c * g
	}
}
