package autograd

import "math"

// Sigmoid returns 1/(1 + e⁻ˣ) element-wise, computed without overflow.
//
// Backward: ∂x += out·(1 − out)·∂out.
func (t *Tape) Sigmoid(x *Var) *Var { return t.elementwise(x, 8, 0, sigmoidForward, sigmoidBackward) }

func sigmoidForward(_ float32, y, x []float32) {
	for i, v := range x {
		y[i] = sigmoid(v)
	}
}

func sigmoidBackward(_ float32, gx, gy, _, y []float32) {
	for i, g := range gy {
		gx[i] += y[i] * (1 - y[i]) * g
	}
}

// sigmoid is the logistic function, stable for large |v|.
func sigmoid(v float32) float32 {
	if v >= 0 {
		return float32(1 / (1 + math.Exp(-float64(v))))
	}
	e := math.Exp(float64(v))
	return float32(e / (1 + e))
}
