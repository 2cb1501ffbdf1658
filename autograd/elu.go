package autograd

import (
	"math"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// ELU returns x where x > 0 and alpha·(eˣ − 1) elsewhere.
//
// Backward: ∂x += ∂out where x > 0, (out + alpha)·∂out elsewhere (which is
// alpha·eˣ·∂out).
func (t *Tape) ELU(x *Var, alpha float32) *Var {
	return t.elementwise(x, 8, alpha, eluForward, eluBackward)
}

func eluForward(alpha float32, y, x []float32) {
	if simd.Enabled() && !goFusesFMA { // eluForwardGo's bits, packed
		simd.ELU(x, y[:len(x)], alpha)
		return
	}
	eluForwardGo(alpha, y, x)
}

// eluForwardGo is eluForward's Go loop (a GOAMD64=v3 build fuses the
// multiply-adds of math.Expm1, so it keeps this loop).
func eluForwardGo(alpha float32, y, x []float32) {
	for i, v := range x {
		if v > 0 {
			y[i] = v
		} else {
			y[i] = alpha * float32(math.Expm1(float64(v)))
		}
	}
}

func eluBackward(alpha float32, gx, gy, x, y []float32) {
	if simd.Enabled() && !goFusesFMA { // eluBackwardGo's bits, packed
		simd.ELUBackward(gy, x[:len(gy)], y[:len(gy)], gx[:len(gy)], alpha)
		return
	}
	eluBackwardGo(alpha, gx, gy, x, y)
}

// eluBackwardGo is eluBackward's Go loop (a GOAMD64=v3 build fuses its
// multiply-add, so it keeps this loop).
func eluBackwardGo(alpha float32, gx, gy, x, y []float32) {
	for i, g := range gy {
		if x[i] > 0 {
			gx[i] += g
		} else {
			gx[i] += (y[i] + alpha) * g
		}
	}
}
