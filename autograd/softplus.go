package autograd

import "math"

// Softplus returns log(1 + eˣ) element-wise (PyTorch's Softplus with β = 1
// and threshold 20: above 20 the input is returned unchanged), computed
// without overflow. It is a smooth positive map used e.g. for learned scales.
//
// Backward: ∂x += σ(x)·∂out (σ the logistic function; 1 above the threshold).
func (t *Tape) Softplus(x *Var) *Var {
	return t.elementwise(x, 8, 0, softplusForward, softplusBackward)
}

func softplusForward(_ float32, y, x []float32) {
	for i, v := range x {
		y[i] = softplus(v)
	}
}

func softplusBackward(_ float32, gx, gy, x, _ []float32) {
	for i, g := range gy {
		if x[i] > softplusThreshold {
			gx[i] += g
		} else {
			gx[i] += sigmoid(x[i]) * g
		}
	}
}

// softplusThreshold is the input above which Softplus is the identity.
const softplusThreshold = 20

// softplus is log(1 + eᵛ), stable for large |v|.
func softplus(v float32) float32 {
	if v > softplusThreshold {
		return v
	}
	x := float64(v)
	// log(1+eˣ) = max(x,0) + log1p(e^{−|x|})
	return float32(math.Max(x, 0) + math.Log1p(math.Exp(-math.Abs(x))))
}
