package autograd

// Scale returns c·x for a constant c.
//
// Backward: ∂x += c·∂out.
func (t *Tape) Scale(x *Var, c float32) *Var {
	return t.elementwise(x, 1,
		func(y, x []float32) {
			for i, v := range x {
				y[i] = c * v
			}
		},
		func(gx, gy, _, _ []float32) {
			for i, g := range gy {
				gx[i] += c * g
			}
		})
}
