package autograd

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
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

// TestGELUVectorMatchesGo compares the vector forward and backward with
// the scalar loops bit for bit, on inputs that reach every range of erf,
// beyond the density's exponential range (|x| > 37), ±0, ±Inf and NaN, at
// lengths around the block of 256 and the groups of four.
func TestGELUVectorMatchesGo(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels: geluForward is geluForwardGo")
	}
	rng := rand.New(rand.NewPCG(3, 5))
	special := []float32{0, float32(math.Copysign(0, -1)), 1e-40, -1e-40, 1e-9, 0.5, 1.2, 1.7, 4, 8.4, 9, -9,
		40, -40, 60, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}
	for _, n := range []int{1, 3, 4, 255, 256, 257, 700} {
		x := make([]float32, n)
		gy := make([]float32, n)
		for i := range x {
			if rng.IntN(5) == 0 {
				x[i] = special[rng.IntN(len(special))]
			} else {
				x[i] = float32(rng.NormFloat64() * 3)
			}
			gy[i] = float32(rng.NormFloat64())
		}
		y, want := make([]float32, n), make([]float32, n)
		geluForward(0, y, x)
		geluForwardGo(want, x)
		gx, gwant := make([]float32, n), make([]float32, n)
		for i := range gx {
			gx[i] = float32(rng.NormFloat64())
			gwant[i] = gx[i]
		}
		geluBackward(0, gx, gy, x, y)
		geluBackwardGo(gwant, gy, x)
		for i := range x {
			if math.Float32bits(y[i]) != math.Float32bits(want[i]) {
				t.Fatalf("n=%d: GELU(%g) = %g, the Go loop %g", n, x[i], y[i], want[i])
			}
			if math.Float32bits(gx[i]) != math.Float32bits(gwant[i]) {
				t.Fatalf("n=%d: GELU'(%g)·%g added = %g, the Go loop %g", n, x[i], gy[i], gx[i], gwant[i])
			}
		}
	}
}

// BenchmarkGELU runs GELU's vector forward and backward over 4096 inputs
// x ~ N(0, 1), a Platonov-style hidden layer's activations.
func BenchmarkGELU(b *testing.B) {
	if !simd.Enabled() {
		b.Skip("no vector kernels")
	}
	rng := rand.New(rand.NewPCG(4, 6))
	x, y, gx, gy := make([]float32, 4096), make([]float32, 4096), make([]float32, 4096), make([]float32, 4096)
	for i := range x {
		x[i], gy[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
	}
	b.Run("forward", func(b *testing.B) {
		for b.Loop() {
			geluForward(0, y, x)
		}
	})
	b.Run("backward", func(b *testing.B) {
		for b.Loop() {
			geluBackward(0, gx, gy, x, y)
		}
	})
}
