package autograd

import "math"

// Tanh returns tanh(x) element-wise.
//
// Backward: ∂x += (1 − out²)·∂out.
func (t *Tape) Tanh(x *Var) *Var { return t.elementwise(x, 8, 0, tanhForward, tanhBackward) }

func tanhForward(_ float32, y, x []float32) {
	for i, v := range x {
		y[i] = float32(math.Tanh(float64(v)))
	}
}

func tanhBackward(_ float32, gx, gy, _, y []float32) {
	for i, g := range gy {
		gx[i] += (1 - y[i]*y[i]) * g
	}
}
