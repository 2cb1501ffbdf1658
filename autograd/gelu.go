package autograd

import "math"

// GELU returns the Gaussian error linear unit x·Φ(x) = x·(1 + erf(x/√2))/2,
// the exact form of torch.nn.GELU() (approximate="none"), which Platonov et
// al.'s heterophily-benchmark models use as their activation. Each element
// is computed in float64 and rounded once.
//
// Backward: ∂x += (Φ(x) + x·φ(x))·∂out, with φ the standard normal density.
func (t *Tape) GELU(x *Var) *Var {
	return t.elementwise(x, 20, 0, geluForward, geluBackward)
}

func geluForward(_ float32, y, x []float32) {
	for i, v := range x {
		z := float64(v)
		y[i] = float32(0.5 * z * (1 + math.Erf(z/math.Sqrt2)))
	}
}

func geluBackward(_ float32, gx, gy, x, _ []float32) {
	const invSqrt2Pi = 0.3989422804014327 // 1/√(2π)
	for i, g := range gy {
		z := float64(x[i])
		cdf := 0.5 * (1 + math.Erf(z/math.Sqrt2))
		pdf := invSqrt2Pi * math.Exp(-0.5*z*z)
		gx[i] += float32((cdf + z*pdf) * float64(g))
	}
}
