package tensor

import (
	"math"
	"testing"
)

func TestExpNonPos(t *testing.T) {
	worst := 0.0
	for i := 0; i <= 300_000; i++ {
		x := -110 * float64(i) / 300_000
		got, want := expNonPos(x), math.Exp(x)
		if x < -104 {
			continue
		}
		rel := math.Abs(got-want) / want
		worst = math.Max(worst, rel)
		if rel > 1e-8 {
			t.Fatalf("expNonPos(%v) = %v, want %v (relative error %.3g)", x, got, want, rel)
		}
	}
	if expNonPos(-200) != 0 || expNonPos(0) != 1 || !math.IsNaN(expNonPos(math.NaN())) || expNonPos(math.Inf(-1)) != 0 {
		t.Fatal("expNonPos special cases wrong")
	}
	t.Logf("worst relative error on [-104, 0]: %.3g", worst)
}

func BenchmarkExp(b *testing.B) {
	xs := make([]float64, 1024)
	for i := range xs {
		xs[i] = -20 * float64(i) / 1024
	}
	b.Run("expNonPos", func(b *testing.B) {
		s := 0.0
		for b.Loop() {
			for _, x := range xs {
				s += expNonPos(x)
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
