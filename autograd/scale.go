package autograd

import "github.com/pcgcn/pcgcn/internal/simd"

// Scale returns c·x for a constant c.
//
// Backward: ∂x += c·∂out.
func (t *Tape) Scale(x *Var, c float32) *Var {
	return t.elementwise(x, 1, c, scaleForward, scaleBackward)
}

// scaleForward is kept out of line: AlphaMix calls it with a constant c, which
// inlined would let the compiler fold c = −1 into a negation (flipping a
// NaN's sign, where the multiplication of the elementwise path keeps it).
//
//go:noinline
func scaleForward(c float32, y, x []float32) {
	if simd.Enabled() {
		simd.ScaleVec(x, y, c) // scaleForwardGo packed (TestScaleVecMatchesGo)
		return
	}
	scaleForwardGo(c, y, x)
}

// scaleForwardGo is scaleForward's Go loop.
//
//go:noinline
func scaleForwardGo(c float32, y, x []float32) {
	for i, v := range x {
		y[i] = c * v
	}
}

// scaleBackward is kept out of line: AlphaMix calls it with a constant c, which
// inlined would let the compiler fold c = −1 into a negation (flipping a
// NaN's sign, where the multiplication of the elementwise path keeps it).
//
//go:noinline
func scaleBackward(c float32, gx, gy, _, _ []float32) {
	if simd.Enabled() && !goFusesFMA {
		// scaleBackwardGo compiles to MULSS (g first) then ADDSS (the
		// product first): simd.AXPY packed (TestScaleBackwardMatchesGo)
		simd.AXPY(c, gy, gx[:len(gy)])
		return
	}
	scaleBackwardGo(c, gx, gy)
}

// scaleBackwardGo is scaleBackward's Go loop.
//
//go:noinline
func scaleBackwardGo(c float32, gx, gy []float32) {
	for i, g := range gy {
		gx[i] += c * g
	}
}
