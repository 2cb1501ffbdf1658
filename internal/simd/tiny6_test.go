package simd

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAnyBitsMatchesGo plants one special value (an infinity, a NaN, a −0,
// a subnormal) at every position of slices of 0–100 floats and checks the
// vector scan against the element loop for the non-finite and −0 patterns.
func TestAnyBitsMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	specials := []float32{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
		math.Float32frombits(0x7fc00001), float32(math.Copysign(0, -1)), 0, math.Float32frombits(1), 1e30}
	patterns := [][2]uint32{{0x7f800000, 0x7f800000}, {0xffffffff, 0x80000000}}
	for n := 0; n <= 100; n++ {
		x := make([]float32, n)
		for pos := -1; pos < n; pos++ {
			for _, s := range specials {
				for i := range x {
					x[i] = float32(r.NormFloat64())
				}
				if pos >= 0 {
					x[pos] = s
				}
				for _, p := range patterns {
					want := anyBitsGo(x, p[0], p[1])
					if got := AnyBits(x, p[0], p[1]); got != want {
						t.Fatalf("n %d, %v at %d, mask %#x want %#x: %v, the loop %v", n, s, pos, p[0], p[1], got, want)
					}
					if ref := refAnyBits(x, p[1]); want != ref {
						t.Fatalf("n %d, %v at %d, want %#x: the loop says %v, math says %v", n, s, pos, p[1], want, ref)
					}
				}
			}
		}
	}
}

// refAnyBits is what the two patterns mean: an infinity or a NaN, or a −0.
func refAnyBits(x []float32, want uint32) bool {
	for _, v := range x {
		f := float64(v)
		if want == 0x7f800000 && (math.IsInf(f, 0) || math.IsNaN(f)) || want == 0x80000000 && v == 0 && math.Signbit(f) {
			return true
		}
	}
	return false
}

// TestTranspose8MatchesGo: the vector transpose writes what the element
// loop writes, bits included (NaN payloads), for 1–9 blocks at row strides
// above the blocks' width, and leaves the floats between dst's rows alone.
func TestTranspose8MatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for n8 := 0; n8 <= 9; n8++ {
		for _, lds := range []int{8 * max(n8, 1), 8*n8 + 3, 257} {
			for _, ldd := range []int{8, 16, 21} {
				src := make([]float32, 7*lds+8*n8+5)
				for i := range src {
					src[i] = math.Float32frombits(r.Uint32())
				}
				got, want := make([]float32, 8*n8*ldd+8), make([]float32, 8*n8*ldd+8)
				for i := range got {
					got[i] = float32(i)
					want[i] = float32(i)
				}
				Transpose8(n8, src, lds, got, ldd)
				transpose8Go(n8, src, lds, want, ldd)
				for i := range got {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
						t.Fatalf("%d blocks, lds %d, ldd %d: dst[%d] = %#x, want %#x", n8, lds, ldd, i, math.Float32bits(got[i]), math.Float32bits(want[i]))
					}
				}
			}
		}
	}
}
