package autograd

import "math"

// ReLU returns max(x, 0) element-wise.
//
// Backward: ∂x += ∂out where x > 0 (the derivative at 0 is taken as 0).
func (t *Tape) ReLU(x *Var) *Var { return t.elementwise(x, 1, 0, reluForward, reluBackward) }

func reluForward(_ float32, y, x []float32) {
	for i, v := range x {
		y[i] = max(v, 0)
	}
}

func reluBackward(_ float32, gx, gy, x, _ []float32) {
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
