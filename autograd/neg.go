package autograd

// Neg returns −x.
//
// Backward: ∂x −= ∂out.
func (t *Tape) Neg(x *Var) *Var { return t.elementwise(x, 1, 0, negForward, negBackward) }

func negForward(_ float32, y, x []float32) {
	for i, v := range x {
		y[i] = -v
	}
}

func negBackward(_ float32, gx, gy, _, _ []float32) {
	for i, g := range gy {
		gx[i] -= g
	}
}
