package autograd

import (
	"math"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// ReLU returns max(x, 0) element-wise.
//
// Backward: ∂x += ∂out where x > 0 (the derivative at 0 is taken as 0).
func (t *Tape) ReLU(x *Var) *Var { return t.elementwise(x, 1, 0, reluForward, reluBackward) }

// reluForward and reluBackward take the vector kernels when there are
// (simd.ReLU, simd.ReLUBackward: the bits of the Go loops below, which are
// their definition).
func reluForward(_ float32, y, x []float32) {
	if simd.Enabled() {
		simd.ReLU(x, y[:len(x)])
		return
	}
	reluForwardGo(y, x)
}

func reluForwardGo(y, x []float32) {
	for i, v := range x {
		y[i] = max(v, 0)
	}
}

func reluBackward(_ float32, gx, gy, x, _ []float32) {
	if simd.Enabled() {
		simd.ReLUBackward(gy, x[:len(gy)], gx[:len(gy)])
		return
	}
	reluBackwardGo(gx, gy, x)
}

func reluBackwardGo(gx, gy, x []float32) {
	x = x[:len(gy)]
	gx = gx[:len(gy)]
	for i, g := range gy {
		gx[i] += math.Float32frombits(math.Float32bits(g) & positiveMask(x[i]))
	}
}

// positiveMask returns all ones when v > 0 and zero otherwise, without a
// branch: on real activations the sign is a coin flip, and a branch would be
// mispredicted half the time.
func positiveMask(v float32) uint32 {
	u := math.Float32bits(v)
	nonNeg := (u >> 31) ^ 1         // 1 when the sign bit is clear
	nonZero := (u | (^u + 1)) >> 31 // 1 when u != 0 (−0 has the sign bit set)
	return -(nonNeg & nonZero)      // 0xFFFFFFFF or 0
}
