package tensor

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// dropValues returns a copy of a whose values are +0 (or −0) with
// probability p, as dropout leaves them, with a NaN and tiny values that
// make products underflow to ±0 (chains at −0) planted among the rest.
func dropValues(r *rand.Rand, a *CSR, p float64) *CSR {
	val := make([]float32, len(a.Val))
	for k, v := range a.Val {
		switch u := r.Float64(); {
		case u < p*0.9:
			val[k] = 0
		case u < p:
			val[k] = float32(math.Copysign(0, -1))
		case u < p+0.03:
			val[k] = 1e-30 // times b's tiny values: an underflow to ±0
		default:
			val[k] = v
		}
	}
	if len(val) > 5 {
		val[5] = float32(math.NaN())
	}
	return a.WithValues(val)
}

// TestSkipZerosMatchesSpMM: SpMMSkipZeros and SpMMTSkipZeros give the bits
// of SpMM and SpMMT on matrices whose values are mostly ±0 (with empty
// rows, NaN values and products that underflow to −0), over b with and
// without infinities and NaNs, c with and without −0 for a beta of 1 (a
// beta of 0 over a c of NaNs), betas 0, 1 and 0.5, alphas 1 and −2, widths
// 9–128 and 1–3 goroutines, the scratch reused from call to call.
func TestSkipZerosMatchesSpMM(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels")
	}
	r := newRand(47)
	var z ZeroSkip
	for _, p := range []float64{0, 0.2, 0.5, 0.7, 1} {
		a := dropValues(r, randCSR(r, 60, 90, 0.08, true), p)
		for _, n := range []int{9, 17, 64, 70, 128} {
			for _, special := range []string{"", "inf", "nan", "tiny", "negzero"} {
				for _, ab := range [][2]float32{{1, 0}, {1, 1}, {-2, 1}, {1, 0.5}} {
					for threads := 1; threads <= 3; threads++ {
						e := Exec{Threads: threads}
						for _, trans := range []bool{false, true} {
							rows, inner := a.Rows, a.Cols
							if trans {
								rows, inner = inner, rows
							}
							b := randDense(r, inner, n)
							c := randDense(r, rows, n)
							switch special {
							case "inf":
								b.Data[r.IntN(len(b.Data))] = float32(math.Inf(1))
							case "nan":
								b.Data[r.IntN(len(b.Data))] = float32(math.NaN())
							case "tiny":
								for i := range b.Data {
									if i%3 == 0 {
										b.Data[i] = float32(-1e-20 * (1 + r.Float64()))
									}
								}
								clear(c.Data)
							case "negzero":
								for i := range c.Data {
									if i%2 == 0 {
										c.Data[i] = float32(math.Copysign(0, -1))
									}
								}
								for i := range b.Data {
									if i%3 == 0 {
										b.Data[i] = -1e-20
									}
								}
							}
							if ab[1] == 0 {
								for i := range c.Data {
									c.Data[i] = float32(math.NaN())
								}
							}
							want := c.Clone()
							if trans {
								SpMMT(e, ab[0], a, b, ab[1], want)
								SpMMTSkipZeros(e, ab[0], a, b, ab[1], c, &z)
							} else {
								SpMM(e, ab[0], a, b, ab[1], want)
								SpMMSkipZeros(e, ab[0], a, b, ab[1], c, &z)
							}
							if i := bitsEqual(c.Data, want.Data); i >= 0 {
								t.Fatalf("p %g, %d wide, %q, alpha %g beta %g, %d threads, transposed %v: element %d = %v (%#x), SpMM's %v (%#x)",
									p, n, special, ab[0], ab[1], threads, trans, i, c.Data[i], math.Float32bits(c.Data[i]), want.Data[i], math.Float32bits(want.Data[i]))
							}
						}
					}
				}
			}
		}
	}
}

// TestSkipZerosTakesThePath checks that the exact cases do skip: a
// mutant of the copy that keeps a zero entry, or drops a non-zero one, is
// caught by TestSkipZerosMatchesSpMM only if the path runs.
func TestSkipZerosTakesThePath(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels")
	}
	r := newRand(7)
	a := dropValues(r, randCSR(r, 40, 50, 0.1, false), 0.7)
	b, c := randDense(r, 50, 64), NewDense(40, 64)
	if !skipZeros(1, a, b, 0, c) || !skipZeros(1, a, b, 1, c) {
		t.Fatal("a finite b, no −0 in c, 70% zeros: the products do not skip")
	}
	c.Data[3] = float32(math.Copysign(0, -1))
	if skipZeros(1, a, b, 1, c) || !skipZeros(1, a, b, 0, c) {
		t.Fatal("a −0 in c must stop a beta of 1 only")
	}
	b.Data[7] = float32(math.Inf(-1))
	if skipZeros(1, a, b, 0, c) {
		t.Fatal("an infinity in b must stop the skipping")
	}
}
