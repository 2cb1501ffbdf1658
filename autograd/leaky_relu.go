package autograd

import (
	"math"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// LeakyReLU returns x where x > 0 and slope·x elsewhere (GAT uses slope 0.2).
//
// Backward: ∂x += ∂out where x > 0, slope·∂out elsewhere.
//
// Both directions are branchless (the sign of an activation is a coin flip
// that a branch would mispredict half the time; on Squirrel's edge scores
// that made LeakyReLU a fifth of a GAT epoch).
func (t *Tape) LeakyReLU(x *Var, slope float32) *Var {
	return t.elementwise(x, 1, slope, leakyReLUForward, leakyReLUBackward)
}

// vectorLeakyReLU says whether LeakyReLU takes the AVX2 kernels
// (simd.LeakyReLU, simd.LeakyReLUBackward), which give the bits of the Go
// loops below as the default GOAMD64 level compiles them; a GOAMD64=v3 build
// fuses the loops' a·b+c and keeps them.
var vectorLeakyReLU = simd.Enabled() && !goFusesFMA

func leakyReLUForward(slope float32, y, x []float32) {
	if vectorLeakyReLU {
		simd.LeakyReLU(x, y[:len(x)], slope)
		return
	}
	leakyReLUForwardGo(slope, y, x)
}

func leakyReLUForwardGo(slope float32, y, x []float32) {
	for i, v := range x {
		y[i] = max(v, 0) + slope*min(v, 0)
	}
}

func leakyReLUBackward(slope float32, gx, gy, x, _ []float32) {
	if vectorLeakyReLU {
		simd.LeakyReLUBackward(gy, x[:len(gy)], gx[:len(gy)], slope)
		return
	}
	leakyReLUBackwardGo(slope, gx, gy, x)
}

func leakyReLUBackwardGo(slope float32, gx, gy, x []float32) {
	sb := math.Float32bits(slope)
	x = x[:len(gy)]
	gx = gx[:len(gy)]
	for i, g := range gy {
		pos := positiveMask(x[i]) // all ones where x > 0
		f := math.Float32frombits(0x3f800000&pos | sb&^pos)
		gx[i] += f * g
	}
}
