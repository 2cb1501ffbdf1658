package autograd

// ReLU returns max(x, 0) element-wise.
//
// Backward: ∂x += ∂out where x > 0 (the derivative at 0 is taken as 0).
func (t *Tape) ReLU(x *Var) *Var {
	return t.elementwise(x, 1,
		func(y, x []float32) {
			for i, v := range x {
				y[i] = max(v, 0)
			}
		},
		func(gx, gy, x, _ []float32) {
			for i, g := range gy {
				if x[i] > 0 {
					gx[i] += g
				}
			}
		})
}
