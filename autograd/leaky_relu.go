package autograd

// LeakyReLU returns x where x > 0 and slope·x elsewhere (GAT uses slope 0.2).
//
// Backward: ∂x += ∂out where x > 0, slope·∂out elsewhere.
func (t *Tape) LeakyReLU(x *Var, slope float32) *Var {
	return t.elementwise(x, 1,
		func(y, x []float32) {
			for i, v := range x {
				if v > 0 {
					y[i] = v
				} else {
					y[i] = slope * v
				}
			}
		},
		func(gx, gy, x, _ []float32) {
			for i, g := range gy {
				if x[i] > 0 {
					gx[i] += g
				} else {
					gx[i] += slope * g
				}
			}
		})
}
