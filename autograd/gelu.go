package autograd

import (
	"math"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// GELU returns the Gaussian error linear unit x·Φ(x) = x·(1 + erf(x/√2))/2,
// the exact form of torch.nn.GELU() (approximate="none"), which Platonov et
// al.'s heterophily-benchmark models use as their activation. Each element
// is computed in float64 and rounded once.
//
// Backward: ∂x += (Φ(x) + x·φ(x))·∂out, with φ the standard normal density.
//
// With the vector kernels, erf and the density's exponential run four
// lanes at a time through simd.Erf64 and simd.Exp64, which give math.Erf's
// and math.Exp's bits, and the loops around them through simd.GELUArgs,
// GELUOut, GELUBackArgs and GELUBackOut, which give the Go loops' bits: the
// same numbers as the scalar loops, at a fraction of their time (they took
// half of a Platonov GCN's epoch).
func (t *Tape) GELU(x *Var) *Var {
	return t.elementwise(x, 20, 0, geluForward, geluBackward)
}

// geluBlock is how many elements the vector paths take at a time, in
// float64 buffers on the stack.
const geluBlock = 256

// invSqrt2Pi is 1/√(2π), the standard normal density's factor.
const invSqrt2Pi = 0.3989422804014327

func geluForward(_ float32, y, x []float32) {
	if !simd.Enabled() {
		geluForwardGo(y, x)
		return
	}
	var e [geluBlock]float64
	for len(x) > 0 {
		xb := x[:min(len(x), geluBlock)]
		eb := e[:len(xb)]
		simd.GELUArgs(xb, eb)
		simd.Erf64(eb)
		simd.GELUOut(y, xb, eb)
		x, y = x[len(xb):], y[len(xb):]
	}
}

// geluForwardGo is geluForward without the vector kernels.
func geluForwardGo(y, x []float32) {
	for i, v := range x {
		z := float64(v)
		y[i] = float32(0.5 * z * (1 + math.Erf(z/math.Sqrt2)))
	}
}

func geluBackward(_ float32, gx, gy, x, _ []float32) {
	if !simd.Enabled() {
		geluBackwardGo(gx, gy, x)
		return
	}
	var e, p [geluBlock]float64
	for len(x) > 0 {
		xb := x[:min(len(x), geluBlock)]
		eb, pb := e[:len(xb)], p[:len(xb)]
		inRange := simd.GELUBackArgs(xb, eb, pb)
		simd.Erf64(eb)
		if inRange {
			simd.Exp64(pb)
		} else { // |x| > 37 or NaN somewhere in the block
			for i, v := range pb {
				pb[i] = math.Exp(v)
			}
		}
		simd.GELUBackOut(gx, gy, xb, eb, pb)
		x, gx, gy = x[len(xb):], gx[len(xb):], gy[len(xb):]
	}
}

// geluBackwardGo is geluBackward without the vector kernels.
func geluBackwardGo(gx, gy, x []float32) {
	for i, g := range gy {
		z := float64(x[i])
		cdf := 0.5 * (1 + math.Erf(z/math.Sqrt2))
		pdf := invSqrt2Pi * math.Exp(-0.5*z*z)
		gx[i] += float32((cdf + z*pdf) * float64(g))
	}
}
