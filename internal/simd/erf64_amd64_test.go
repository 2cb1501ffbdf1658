//go:build amd64 && !purego

package simd

import (
	"fmt"
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

// erfCheckBits fails t unless Erf64 of a copy of x gives math.Erf's bits
// for every element, NaN's included.
func erfCheckBits(t *testing.T, name string, x []float64) {
	t.Helper()
	got := append([]float64(nil), x...)
	Erf64(got)
	for i, v := range x {
		want := math.Erf(v)
		if math.Float64bits(got[i]) != math.Float64bits(want) {
			t.Fatalf("%s, len %d, x[%d] = %v (%#x): Erf64 %v (%#x), math.Erf %v (%#x)", name, len(x), i, v,
				math.Float64bits(v), got[i], math.Float64bits(got[i]), want, math.Float64bits(want))
		}
	}
}

// erfRangeDraw draws a value from one of math.erf's ranges as Erf64
// splits them: 0 below 0.84375 (ordinary), 1 in [0.84375, 1.25), 2 in
// [1.25, 1/0.35), 3 in [1/0.35, 6), 4 at or above 6; random signs.
func erfRangeDraw(rng *rand.Rand, r int) float64 {
	bounds := [...]float64{0, 0.84375, 1.25, 1 / 0.35, 6, 40}
	v := bounds[r] + rng.Float64()*(bounds[r+1]-bounds[r])
	if rng.IntN(2) == 0 {
		v = -v
	}
	return v
}

// TestErf64RangeBlocks checks Erf64's gathering by range on blocks where
// all lanes fall in one range, where one range is empty, and where the
// ranges alternate lane by lane, at lengths 0–3 past a multiple of 4 and
// past a whole block of 256.
func TestErf64RangeBlocks(t *testing.T) {
	requireVector(t)
	rng := rand.New(rand.NewPCG(3, 5))
	lengths := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 60, 61, 62, 63, 252, 253, 254, 255, 256, 257, 258, 259, 511, 516}
	patterns := map[string]func(i int) int{
		"all small":  func(int) int { return 0 },
		"all middle": func(int) int { return 1 },
		"all tail a": func(int) int { return 2 },
		"all tail b": func(int) int { return 3 },
		"all ≥ 6":    func(int) int { return 4 },
		"all tail":   func(i int) int { return 2 + i%2 },
		"no small":   func(i int) int { return 1 + rng.IntN(4) },
		"no middle":  func(int) int { return [...]int{0, 2, 3, 4}[rng.IntN(4)] },
		"no tail":    func(int) int { return [...]int{0, 1, 4}[rng.IntN(3)] },
		"alternate":  func(i int) int { return i % 5 },
		"random":     func(int) int { return rng.IntN(5) },
	}
	for name, pick := range patterns {
		for _, n := range lengths {
			x := make([]float64, n)
			for i := range x {
				x[i] = erfRangeDraw(rng, pick(i))
			}
			erfCheckBits(t, name, x)
		}
	}
}

// TestErf64SpecialsInEveryPosition puts each special value (NaN, ±Inf, ±0,
// subnormals, the tiny range below 2⁻¹⁰¹⁵, the range boundaries) at every
// position of blocks otherwise filled from one range or from all, so that
// it lands in every lane of a group of four, first and last of a block, and
// in the scalar remainder.
func TestErf64SpecialsInEveryPosition(t *testing.T) {
	requireVector(t)
	rng := rand.New(rand.NewPCG(9, 13))
	specials := []float64{math.NaN(), math.Float64frombits(0x7ff0000000000123), math.Float64frombits(0xfff8000000000042),
		math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 5e-324, -5e-324, 2.2250738585072009e-308, -1e-310,
		1e-306, -2.848094538889218e-306, math.Nextafter(2.848094538889218e-306, 0), 1e-300,
		0.84375, -1.25, 1 / 0.35, -6, math.Nextafter(6, 0), math.Nextafter(1.25, 0)}
	for _, n := range []int{1, 3, 4, 7, 8, 13, 256, 259} {
		for fill := -1; fill < 5; fill++ {
			base := make([]float64, n)
			for i := range base {
				r := fill
				if r < 0 {
					r = rng.IntN(5)
				}
				base[i] = erfRangeDraw(rng, r)
			}
			for _, sp := range specials {
				for pos := range n {
					x := append([]float64(nil), base...)
					x[pos] = sp
					erfCheckBits(t, fmt.Sprintf("special %v, fill %d", sp, fill), x)
				}
			}
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
