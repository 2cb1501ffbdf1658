//go:build amd64 && !purego

package simd

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestExp64MatchesMathExp compares every lane with math.Exp bit for bit: the
// whole range in random magnitudes, the cross-entropy's arguments (float32
// differences, mostly small and ≤ 0), the range's ends, ±0, the rounding
// boundaries of n = round(x·log₂e) (x near (k+½)·ln2), and every length
// 0–13 (the tail goes through math.Exp).
func TestExp64MatchesMathExp(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(7, 11))
	var xs []float64
	for range 200000 {
		switch r.IntN(4) {
		case 0:
			xs = append(xs, (2*r.Float64()-1)*Exp64MaxArg)
		case 1:
			xs = append(xs, float64(float32(r.NormFloat64()*3)-float32(r.NormFloat64()*3)))
		case 2:
			xs = append(xs, -r.ExpFloat64()*float64(r.IntN(50)+1))
		default:
			k := float64(r.IntN(2000) - 1000)
			xs = append(xs, math.Nextafter((k+0.5)*math.Ln2, math.Inf(int(r.IntN(2))*2-1)))
		}
	}
	xs = append(xs, Exp64MaxArg, -Exp64MaxArg, 0, math.Copysign(0, -1), 1, -1, 1e-300, -1e-300, 5e-324)
	xs = append(xs, math.Nextafter(math.Log(math.MaxFloat64), 0))[:len(xs)] // keep the range
	for n := 0; n <= 13; n++ {
		check(t, xs[:n])
		check(t, xs[len(xs)-n:])
	}
	check(t, xs)
}

func check(t *testing.T, xs []float64) {
	t.Helper()
	got := append([]float64(nil), xs...)
	Exp64(got)
	for i, x := range xs {
		if want := math.Exp(x); math.Float64bits(got[i]) != math.Float64bits(want) {
			t.Fatalf("Exp64(%v) = %v (%#x), math.Exp gives %v (%#x)", x, got[i], math.Float64bits(got[i]), want, math.Float64bits(want))
		}
	}
}
