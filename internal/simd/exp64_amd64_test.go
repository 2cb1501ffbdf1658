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

// TestLog64MatchesMathLog compares every lane with math.Log bit for bit:
// random magnitudes over the whole normal range, the cross-entropy's sums
// (1 plus a few exponentials), values at and around √2/2·2ᵏ (where the
// reduction's comparison flips), powers of two, the smallest normal and
// the largest finite float64, and every length 0–13.
func TestLog64MatchesMathLog(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(13, 17))
	var xs []float64
	for range 200000 {
		switch r.IntN(4) {
		case 0:
			xs = append(xs, math.Ldexp(1+r.Float64(), r.IntN(2044)-1021))
		case 1:
			xs = append(xs, 1+r.Float64()*float64(r.IntN(9)))
		case 2:
			h := math.Ldexp(math.Sqrt2/2, r.IntN(200)-100)
			xs = append(xs, math.Nextafter(h, []float64{math.Inf(-1), h, math.Inf(1)}[r.IntN(3)]))
		default:
			xs = append(xs, math.Ldexp(1, r.IntN(2046)-1022))
		}
	}
	xs = append(xs, 1, 2, 0.5, math.SmallestNonzeroFloat64*(1<<52), math.MaxFloat64, math.Sqrt2/2, math.Sqrt2)
	for n := 0; n <= 13; n++ {
		checkLog(t, xs[:n])
		checkLog(t, xs[len(xs)-n:])
	}
	checkLog(t, xs)
}

func checkLog(t *testing.T, xs []float64) {
	t.Helper()
	got := append([]float64(nil), xs...)
	Log64(got)
	for i, x := range xs {
		if want := math.Log(x); math.Float64bits(got[i]) != math.Float64bits(want) {
			t.Fatalf("Log64(%v) = %v (%#x), math.Log gives %v (%#x)", x, got[i], math.Float64bits(got[i]), want, math.Float64bits(want))
		}
	}
}

// TestSpMMRowRangeMatchesSpMMRow compares SpMMRowRange with one SpMMRow
// call per row, bit for bit: widths 1–70, empty rows, with and without a
// value permutation, ranges starting and ending anywhere, and values with
// ±0, infinities and NaN.
func TestSpMMRowRangeMatchesSpMMRow(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(73, 79))
	special := []float32{float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.NaN())}
	for n := 1; n <= 70; n++ {
		const rows, bRows = 40, 30
		rowPtr, col := randRows(r, rows, bRows, 6)
		val := randSlice(r, len(col))
		perm := make([]int32, len(col))
		for k, p := range r.Perm(len(col)) {
			perm[k] = int32(p)
		}
		b := randSlice(r, bRows*n)
		for range 3 {
			b[r.IntN(len(b))] = special[r.IntN(len(special))]
		}
		c0 := randSlice(r, rows*n)
		for _, usePerm := range []bool{false, true} {
			lo, hi := r.IntN(5), rows-r.IntN(5)
			want := append([]float32(nil), c0...)
			got := append([]float32(nil), c0...)
			var pm []int32
			if usePerm {
				pm = perm
			}
			for i := lo; i < hi; i++ {
				s, e := rowPtr[i], rowPtr[i+1]
				if usePerm {
					SpMMRow(0.75, col[s:e], val, perm[s:e], b, n, want[i*n:(i+1)*n])
				} else {
					SpMMRow(0.75, col[s:e], val[s:e], nil, b, n, want[i*n:(i+1)*n])
				}
			}
			SpMMRowRange(0.75, rowPtr, col, val, pm, b, n, got, lo, hi)
			for k := range want {
				if math.Float32bits(got[k]) != math.Float32bits(want[k]) {
					t.Fatalf("n %d, perm %v, rows [%d,%d): element %d is %v, SpMMRow gives %v", n, usePerm, lo, hi, k, got[k], want[k])
				}
			}
		}
	}
}
