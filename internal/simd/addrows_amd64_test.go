//go:build !purego

package simd

import (
	"math/rand/v2"
	"testing"
)

// TestAddScaledRowsMatchesAddScaled compares AddScaledRows with AddScaled
// row by row, bit for bit, on rows of every width up to 20 (tails
// included) at strides wider than the rows, in place and not, with NaN
// payloads, infinities, ±0 and subnormals, and checks that it writes
// nothing between the rows.
func TestAddScaledRowsMatchesAddScaled(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(77, 78))
	for n := 1; n <= 20; n++ {
		for _, ld := range []int{n, n + 3} {
			for _, inPlace := range []bool{false, true} {
				const rows = 5
				a, b := specialSlice(r, n), specialSlice(r, (rows-1)*ld+n)
				out, want := specialSlice(r, len(b)), make([]float32, len(b))
				copy(want, out)
				if inPlace {
					out = append([]float32(nil), b...)
					want = append([]float32(nil), b...)
				}
				for q := range rows {
					w := want[q*ld : q*ld+n]
					bq := b[q*ld : q*ld+n]
					if inPlace {
						bq = append([]float32(nil), w...)
					}
					AddScaled(a, bq, w, -1, 1)
				}
				src := b
				if inPlace {
					src = out
				}
				AddScaledRows(rows, a, src, out, ld, -1, 1)
				if i := sameBits(out, want); i >= 0 {
					t.Fatalf("n=%d ld=%d in place %v: %d: %v, want %v", n, ld, inPlace, i, out[i], want[i])
				}
			}
		}
	}
}
