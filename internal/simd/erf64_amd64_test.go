//go:build amd64 && !purego

package simd

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestErf64MatchesMathErf compares Erf64 with math.Erf bit for bit on every
// range of math.erf (tiny, |x| < 0.84375, < 1.25, < 1/0.35, < 6, ≥ 6),
// their boundaries and neighbours, ±0, subnormals, ±Inf and NaN, at
// lengths that leave 0–3 elements past the last group of four and span
// several of Erf64's blocks.
func TestErf64MatchesMathErf(t *testing.T) {
	requireVector(t)
	rng := rand.New(rand.NewPCG(7, 11))
	special := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1e-300, 1.0 / (1 << 28), 1.0 / (1 << 29),
		0.84375, 1.25, 1 / 0.35, 6, 1e300, math.Inf(1), math.Inf(-1), math.NaN(), 1, -1, 0.5, 3, 27}
	for _, b := range []float64{1.0 / (1 << 28), 0.84375, 1.25, 1 / 0.35, 6} {
		for _, v := range []float64{math.Nextafter(b, 0), math.Nextafter(b, 10)} {
			special = append(special, v, -v)
		}
	}
	for _, n := range []int{0, 1, 3, 4, 7, 64, 255, 256, 257, 1029} {
		x := make([]float64, n)
		for i := range x {
			switch rng.IntN(4) {
			case 0:
				x[i] = special[rng.IntN(len(special))]
			case 1:
				x[i] = rng.NormFloat64() * 2
			case 2:
				x[i] = (rng.Float64()*2 - 1) * 7
			default:
				x[i] = float64(float32(rng.NormFloat64()*3)) / math.Sqrt2 // GELU's inputs
			}
		}
		got := append([]float64(nil), x...)
		Erf64(got)
		for i, v := range x {
			if want := math.Erf(v); math.Float64bits(got[i]) != math.Float64bits(want) && !(math.IsNaN(want) && math.IsNaN(got[i])) {
				t.Fatalf("n=%d: Erf64(%v) = %v (%#x), math.Erf %v (%#x)", n, v, got[i], math.Float64bits(got[i]), want, math.Float64bits(want))
			}
		}
	}
}

// TestErf64Dense sweeps [−7, 7] in steps that hit every range many times.
func TestErf64Dense(t *testing.T) {
	requireVector(t)
	x := make([]float64, 1<<16)
	for i := range x {
		x[i] = -7 + 14*float64(i)/float64(len(x)) + 1e-9*float64(i%7)
	}
	got := append([]float64(nil), x...)
	Erf64(got)
	for i, v := range x {
		if want := math.Erf(v); math.Float64bits(got[i]) != math.Float64bits(want) {
			t.Fatalf("Erf64(%v) = %v, math.Erf %v", v, got[i], want)
		}
	}
}

// BenchmarkErf64 compares Erf64 with a math.Erf loop on wide inputs
// (N(0, 1.5²): 4 lanes in 10 in the exponential tail) and on GELU's (x/√2,
// x unit normal: 1 lane in 13).
func BenchmarkErf64(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	wide, gelu := make([]float64, 4096), make([]float64, 4096)
	for i := range wide {
		wide[i] = rng.NormFloat64() * 1.5
		gelu[i] = rng.NormFloat64() / math.Sqrt2
	}
	y := make([]float64, len(wide))
	for _, in := range []struct {
		name string
		x    []float64
	}{{"", wide}, {"gelu-", gelu}} {
		b.Run(in.name+"vector", func(b *testing.B) {
			requireVector(b)
			for b.Loop() {
				copy(y, in.x)
				Erf64(y)
			}
		})
		b.Run(in.name+"math.Erf", func(b *testing.B) {
			for b.Loop() {
				for i, v := range in.x {
					y[i] = math.Erf(v)
				}
			}
		})
	}
}
