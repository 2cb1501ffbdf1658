package simd

import (
	"math"
	"math/bits"
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
				for i, p := range patterns {
					want := anyBitsGo(x, p[0], p[1])
					if got := AnyBits(x, p[0], p[1]); got != want {
						t.Fatalf("n %d, %v at %d, mask %#x want %#x: %v, the loop %v", n, s, pos, p[0], p[1], got, want)
					}
					if ref := refAnyBits(x, p[1]); want != ref {
						t.Fatalf("n %d, %v at %d, want %#x: the loop says %v, math says %v", n, s, pos, p[1], want, ref)
					}
					// both patterns in one pass: either one found
					other := patterns[1-i]
					want2 := want || anyBitsGo(x, other[0], other[1])
					if got := AnyBits2(x, p[0], p[1], other[0], other[1]); got != want2 {
						t.Fatalf("n %d, %v at %d, patterns %#x and %#x: %v, the loops %v", n, s, pos, p[1], other[1], got, want2)
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

// TestKeepNonZeroMatchesGo: the vector copy of the entries whose values are
// not ±0 keeps the entries a plain loop keeps (NaNs kept, +0 and −0 not),
// in order, with each round's mask and count before it, for 0–80 entries
// at zero shares 0–1, directly and through a permutation.
func TestKeepNonZeroMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	negZero := float32(math.Copysign(0, -1))
	for n := 0; n <= 80; n++ {
		for _, share := range []float64{0, 0.2, 0.7, 1} {
			col, perm, val := make([]int32, n), make([]int32, n), make([]float32, n)
			for k := range n {
				col[k], perm[k] = r.Int32N(5000), int32(r.IntN(n))
				switch u := r.Float64(); {
				case u < share/2:
					val[k] = 0
				case u < share:
					val[k] = negZero
				case u < share+0.05:
					val[k] = math.Float32frombits(0x7fc00000 | r.Uint32()&0xffff)
				default:
					val[k] = float32(r.NormFloat64())
				}
			}
			for _, permuted := range []bool{false, true} {
				var wantCol, wantB []int32
				for k := range n {
					v, b := val[k], int32(math.Float32bits(val[k]))
					if permuted {
						v, b = val[perm[k]], perm[k]
					}
					if v != 0 {
						wantCol, wantB = append(wantCol, col[k]), append(wantB, b)
					}
				}
				oc, ob, ov := make([]int32, n+8), make([]int32, n+8), make([]float32, n+8)
				masks, counts := make([]uint8, n/8+1), make([]int32, n/8+1)
				var m int
				if permuted {
					m = KeepNonZeroPerm(col, perm, val, oc, ob, masks, counts, make([]float32, n))
				} else {
					m = KeepNonZero(col, val, oc, ov, masks, counts)
					for i := range ob {
						ob[i] = int32(math.Float32bits(ov[i]))
					}
				}
				if m != len(wantCol) {
					t.Fatalf("n %d, share %g, permuted %v: %d kept, want %d", n, share, permuted, m, len(wantCol))
				}
				for i := range m {
					if oc[i] != wantCol[i] || ob[i] != wantB[i] {
						t.Fatalf("n %d, share %g, permuted %v: kept entry %d is (%d, %#x), want (%d, %#x)", n, share, permuted, i, oc[i], ob[i], wantCol[i], wantB[i])
					}
				}
				before := 0
				for rd := 0; rd <= n/8; rd++ {
					mask := uint8(0)
					for k := 8 * rd; k < min(8*rd+8, n); k++ {
						v := val[k]
						if permuted {
							v = val[perm[k]]
						}
						if v != 0 {
							mask |= 1 << (k - 8*rd)
						}
					}
					if masks[rd] != mask || int(counts[rd]) != before {
						t.Fatalf("n %d, share %g, permuted %v: round %d has mask %#x and count %d, want %#x and %d", n, share, permuted, rd, masks[rd], counts[rd], mask, before)
					}
					before += bits.OnesCount8(mask)
				}
			}
		}
	}
}
