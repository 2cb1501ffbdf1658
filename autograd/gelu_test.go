package autograd

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestGELU(t *testing.T) {
	// Φ(1) = 0.841344746, Φ(−2) = 0.022750132 (tables of the normal law)
	checkUnary(t, unaryCase{"GELU", func(tp *Tape, x *Var) *Var { return tp.GELU(x) },
		[]float32{1, -2, 0}, []float32{0.841344746, -2 * 0.022750132, 0}}, 0)
}

// TestGELUMatchesFloat64 compares GELU and its gradient on random inputs
// with the float64 formulas x·Φ(x) and Φ(x) + x·φ(x).
func TestGELUMatchesFloat64(t *testing.T) {
	x := testkit.RandDense(13, 7, 77)
	for i := range x.Data {
		x.Data[i] *= 4
	}
	tp := NewTape(tensor.Serial)
	xv := NewParam("x", x)
	y := tp.GELU(xv)
	tp.Backward(tp.Sum(y))
	for i, v := range x.Data {
		z := float64(v)
		cdf := 0.5 * (1 + math.Erf(z/math.Sqrt2))
		want, dwant := z*cdf, cdf+z*math.Exp(-z*z/2)/math.Sqrt(2*math.Pi)
		if math.Abs(float64(y.Value.Data[i])-want) > 1e-6*(1+math.Abs(want)) {
			t.Errorf("GELU(%g) = %g, want %g", z, y.Value.Data[i], want)
		}
		if math.Abs(float64(xv.Grad.Data[i])-dwant) > 1e-6 {
			t.Errorf("GELU'(%g) = %g, want %g", z, xv.Grad.Data[i], dwant)
		}
	}
}
