package tensor

import (
	"math"
	"slices"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
)

func TestExpNonPos(t *testing.T) {
	worst := 0.0
	for i := 0; i <= 300_000; i++ {
		x := -110 * float64(i) / 300_000
		got, want := ExpNonPos(x), math.Exp(x)
		if x < -104 {
			continue
		}
		rel := math.Abs(got-want) / want
		worst = math.Max(worst, rel)
		if rel > 1e-8 {
			t.Fatalf("ExpNonPos(%v) = %v, want %v (relative error %.3g)", x, got, want, rel)
		}
	}
	if ExpNonPos(-200) != 0 || ExpNonPos(0) != 1 || !math.IsNaN(ExpNonPos(math.NaN())) || ExpNonPos(math.Inf(-1)) != 0 {
		t.Fatal("ExpNonPos special cases wrong")
	}
	t.Logf("worst relative error on [-104, 0]: %.3g", worst)
}

func BenchmarkExp(b *testing.B) {
	xs := make([]float64, 1024)
	for i := range xs {
		xs[i] = -20 * float64(i) / 1024
	}
	b.Run("ExpNonPos", func(b *testing.B) {
		s := 0.0
		for b.Loop() {
			for _, x := range xs {
				s += ExpNonPos(x)
			}
		}
		_ = s
	})
	b.Run("math.Exp", func(b *testing.B) {
		s := 0.0
		for b.Loop() {
			for _, x := range xs {
				s += math.Exp(x)
			}
		}
		_ = s
	})
}

// ulpDiff is the distance in units in the last place between two positive
// float32 values.
func ulpDiff(a, b float32) int64 {
	d := int64(math.Float32bits(a)) - int64(math.Float32bits(b))
	if d < 0 {
		d = -d
	}
	return d
}

func TestExpNonPosSlice(t *testing.T) {
	// every float32 step of a dense grid on [-87.3, 0], in slices of every
	// length 0..17 so that the vector kernel's masked tail runs too
	const n = 400_000
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(-87.3 * float64(i) / (n - 1))
	}
	got := slices.Clone(xs)
	for lo, size := 0, 0; lo < n; lo, size = lo+size, (size+1)%18 {
		ExpNonPosSlice(got[lo:min(lo+size, n)])
	}
	var worst int64
	for i, x := range xs {
		want := float32(math.Exp(float64(x)))
		d := ulpDiff(got[i], want)
		worst = max(worst, d)
		if d > 2 {
			t.Fatalf("ExpNonPosSlice(%v) = %v, want %v (%d ulp)", x, got[i], want, d)
		}
	}
	t.Logf("vector path %v: worst error %d ulp", simd.Enabled(), worst)

	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), float32(math.Inf(-1)), -1000, -88, -1e-30}
	ExpNonPosSlice(special)
	if special[0] != 1 || special[1] != 1 || !math.IsNaN(float64(special[2])) || special[3] != 0 || special[4] != 0 || special[6] != 1 {
		t.Fatalf("special cases: got %v", special)
	}
	if special[5] > 1e-38 { // e^-88 ≈ 6e-39: 0 or that subnormal
		t.Fatalf("e^-88 = %v", special[5])
	}
}

func BenchmarkExpNonPosSlice(b *testing.B) {
	xs := make([]float32, 4096)
	buf := make([]float32, len(xs))
	for i := range xs {
		xs[i] = -20 * float32(i) / 4096
	}
	b.SetBytes(int64(4 * len(xs)))
	for b.Loop() {
		copy(buf, xs)
		ExpNonPosSlice(buf)
	}
}
