//go:build amd64 && !purego

package simd

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGELULoopsMatchGo compares GELUArgs, GELUBackArgs, GELUOut and
// GELUBackOut with the Go loops they stand for (package autograd's GELU)
// bit for bit, on normal inputs with special values (±0, subnormals, huge,
// beyond the exponential's range, ±Inf, NaN) at every position of short
// blocks and at random in long ones, at lengths 0–3 past multiples of 4.
func TestGELULoopsMatchGo(t *testing.T) {
	requireVector(t)
	rng := rand.New(rand.NewPCG(21, 8))
	special := []float32{0, float32(math.Copysign(0, -1)), 1e-45, -1e-40, 1e-20, 37.4, -37.5, 40, -1e30,
		math.MaxFloat32, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}
	check := func(x []float32) {
		t.Helper()
		n := len(x)
		gy, e, p := make([]float32, n), make([]float64, n), make([]float64, n)
		for i := range gy {
			gy[i] = float32(rng.NormFloat64())
			e[i] = rng.Float64()*2 - 1
			p[i] = rng.Float64()
		}
		ge, gp := make([]float64, n), make([]float64, n)
		GELUArgs(x, ge)
		inRange := GELUBackArgs(x, ge, gp)
		wantIn := true
		y, gx := make([]float32, n), make([]float32, n)
		wy, wgx := make([]float32, n), make([]float32, n)
		for i := range gx {
			gx[i] = float32(rng.NormFloat64())
			wgx[i] = gx[i]
		}
		GELUOut(y, x, e)
		GELUBackOut(gx, gy, x, e, p)
		for i, v := range x {
			z := float64(v)
			we, wp := z/math.Sqrt2, -0.5*z*z
			wantIn = wantIn && wp >= -Exp64MaxArg
			wy[i] = float32(0.5 * z * (1 + e[i]))
			wgx[i] += float32((0.5*(1+e[i]) + z*(0.3989422804014327*p[i])) * float64(gy[i]))
			if math.Float64bits(ge[i]) != math.Float64bits(we) || math.Float64bits(gp[i]) != math.Float64bits(wp) {
				t.Fatalf("len %d, x[%d] = %g: args %v, %v; Go %v, %v", n, i, v, ge[i], gp[i], we, wp)
			}
			if math.Float32bits(y[i]) != math.Float32bits(wy[i]) || math.Float32bits(gx[i]) != math.Float32bits(wgx[i]) {
				t.Fatalf("len %d, x[%d] = %g: out %v, grad %v; Go %v, %v", n, i, v, y[i], gx[i], wy[i], wgx[i])
			}
		}
		if inRange != wantIn {
			t.Fatalf("len %d: GELUBackArgs in range %v, Go %v (x %v)", n, inRange, wantIn, x)
		}
	}
	for n := range 13 {
		base := make([]float32, n)
		for i := range base {
			base[i] = float32(rng.NormFloat64() * 2)
		}
		check(base)
		for _, sp := range special {
			for pos := range n {
				x := append([]float32(nil), base...)
				x[pos] = sp
				check(x)
			}
		}
	}
	for _, n := range []int{252, 253, 254, 255, 256, 1027} {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64() * 3)
			if rng.IntN(20) == 0 {
				x[i] = special[rng.IntN(len(special))]
			}
		}
		check(x)
	}
}
