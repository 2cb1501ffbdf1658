package tensor

import (
	"math"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// ExpNonPos returns e^x for x ≤ 0 (NaN for NaN), accurate to a few parts in
// 10⁹, i.e. well past float32 precision, and about twice as fast as
// math.Exp; the softmax kernels (here and autograd's multi-head edge
// softmax) call it on v - max(v). It splits x = n·ln2 + r with |r| ≤ ln2/2
// and evaluates the degree-7 Taylor polynomial of e^r by Estrin's scheme
// (truncation error below r⁸/8! ≈ 5·10⁻⁹ relative), then scales by 2ⁿ
// through the exponent bits.
func ExpNonPos(x float64) float64 {
	const (
		log2e = 1.4426950408889634
		ln2hi = 6.93147180369123816490e-01 // ln2 split as in math.Exp
		ln2lo = 1.90821492927058770002e-10
	)
	if !(x >= -104) { // e^-104 is below half of float32's smallest subnormal
		if x < -104 {
			return 0
		}
		return x // NaN
	}
	n := math.Floor(x*log2e + 0.5)
	r := x - n*ln2hi - n*ln2lo
	r2 := r * r
	r4 := r2 * r2 // Estrin's scheme: shorter dependency chains than Horner's
	p := (1 + r) + r2*(1.0/2+r*(1.0/6)) + r4*((1.0/24+r*(1.0/120))+r2*(1.0/720+r*(1.0/5040)))
	return p * math.Float64frombits(uint64(int64(n)+1023)<<52)
}

// ExpNonPosSlice sets x[i] = e^x[i] in place for inputs ≤ 0 (the shifted
// scores of a softmax). With vector support it runs the AVX2 kernel
// (float32 arithmetic, within 2 ulp; inputs below about −87.34 give 0),
// otherwise ExpNonPos element by element; the two agree to float32
// precision, not bit for bit, and each is deterministic.
func ExpNonPosSlice(x []float32) {
	if simd.Enabled() {
		simd.ExpNonPos(x)
		return
	}
	for i, v := range x {
		x[i] = float32(ExpNonPos(float64(v)))
	}
}
