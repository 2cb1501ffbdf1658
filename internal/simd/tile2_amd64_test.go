//go:build !purego

package simd

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGemmTile2MatchesGemmTileOfConcatenation checks the two-source tile
// against GemmTile on the concatenation [A₁ A₂], bit for bit: every tile
// height, inner lengths on both sides (the second empty too), strides with
// and without padding, signed zeros, infinities, NaN payloads, subnormals,
// and alpha 1 and other.
func TestGemmTile2MatchesGemmTileOfConcatenation(t *testing.T) {
	if !Enabled() {
		t.Skip("no AVX2/FMA")
	}
	r := rand.New(rand.NewPCG(44, 2))
	val := func() float32 {
		switch r.IntN(25) {
		case 0:
			return float32(math.Copysign(0, -1))
		case 1:
			return math.Float32frombits(0x7fc00000 | uint32(r.IntN(1<<22)) | uint32(r.IntN(2))<<31)
		case 2:
			return float32(math.Inf(1 - 2*r.IntN(2)))
		case 3:
			return 1e-39 * float32(1-2*r.IntN(2))
		case 4:
			return 0
		}
		return r.Float32()*2 - 1
	}
	fill := func(n int) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = val()
		}
		return s
	}
	for rows := 1; rows <= TileRows; rows++ {
		for _, ks := range [][2]int{{1, 0}, {1, 1}, {64, 64}, {5, 13}, {17, 0}, {3, 200}} {
			for _, alpha := range []float32{1, -0.75} {
				kc, kc2 := ks[0], ks[1]
				rsa := max(kc, kc2) + r.IntN(3) // padded rows
				a1, a2 := fill(rows*rsa), fill(rows*rsa)
				b := fill((kc + kc2) * TileCols)
				c0 := fill(rows * (TileCols + 3))
				cat := make([]float32, rows*(kc+kc2))
				for i := range rows {
					copy(cat[i*(kc+kc2):], a1[i*rsa:i*rsa+kc])
					copy(cat[i*(kc+kc2)+kc:], a2[i*rsa:i*rsa+kc2])
				}
				want := append([]float32(nil), c0...)
				GemmTile(rows, TileCols, kc+kc2, alpha, cat, kc+kc2, 1, b, TileCols, want, TileCols+3)
				got := append([]float32(nil), c0...)
				GemmTile2(rows, kc, kc2, alpha, a1, a2, rsa, 1, b, TileCols, got, TileCols+3)
				for i := range want {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
						t.Fatalf("rows %d, kc %d+%d, alpha %v: element %d is %#x, GemmTile of the concatenation gives %#x",
							rows, kc, kc2, alpha, i, math.Float32bits(got[i]), math.Float32bits(want[i]))
					}
				}
			}
		}
	}
}
