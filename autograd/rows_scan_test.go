package autograd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

// maskRowsSerial is maskRows as it was before the parallel scan: the
// definition the parallel one must follow.
func maskRowsSerial(rows []int32, g *tensor.Dense) {
	n := g.Cols
	next, dirty := 0, false
	for _, i := range rows {
		dirty = dirty || nonZeroIn(g.Data[next*n:int(i)*n])
		next = int(i) + 1
	}
	if !dirty && !nonZeroIn(g.Data[next*n:]) {
		return
	}
	next = 0
	for _, i := range rows {
		clear(g.Data[next*n : int(i)*n])
		next = int(i) + 1
	}
	clear(g.Data[next*n:])
}

// TestMaskRowsMatchesSerialScan: the parallel maskRows leaves the bits of
// the serial one at 1–3 threads, on gradients zero outside the rows (kept
// as they are: ±0 stay) and on gradients with a non-zero (a NaN, an
// infinity, a subnormal or a number) in one row left out, anywhere.
func TestMaskRowsMatchesSerialScan(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 91))
	for _, n := range []int{1, 7, 64, 300, 3000} {
		for _, cols := range []int{1, 5, 16, 33} {
			for _, share := range []int{0, 5, 9, 10} {
				for _, odd := range []float32{0, float32(math.NaN()), float32(math.Inf(-1)), 1e-40, -2} {
					rows := pickRows(r, n, share)
					g := outsideZeros(r, specialDense(r, n, cols), rows)
					if odd != 0 && len(rows) < n {
						left := []int{}
						for i, q := 0, 0; i < n; i++ {
							if q < len(rows) && int(rows[q]) == i {
								q++
								continue
							}
							left = append(left, i)
						}
						g.Data[left[r.IntN(len(left))]*cols+r.IntN(cols)] = odd
					}
					want := g.Clone()
					maskRowsSerial(rows, want)
					for threads := 1; threads <= 3; threads++ {
						t.Run(fmt.Sprintf("%dx%d/kept=%d0%%/%v/threads=%d", n, cols, share, odd, threads), func(t *testing.T) {
							got := g.Clone()
							NewTape(tensor.Exec{Threads: threads}).maskRows(rows, got)
							same(t, "g", got.Data, want.Data)
						})
					}
				}
			}
		}
	}
}

// TestKeptNonZeroRowsMatchesNonZeroRowsOf: on a gradient zero (of either
// sign) outside the rows, keptNonZeroRows gives nonZeroRowsOf's list and
// answer, with kept rows of zeros, of ±0 and of a lone NaN, infinity or
// subnormal, and with more non-zero rows than nonZeroRowsOf takes.
func TestKeptNonZeroRowsMatchesNonZeroRowsOf(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 92))
	for _, n := range []int{9, 63, 64, 300, 3000} {
		for _, cols := range []int{8, 15, 16, 40} {
			for _, share := range []int{0, 5, 8, 9, 10} {
				for _, zeroRows := range []int{0, 1, 4} { // one in zeroRows kept rows zeroed
					rows := pickRows(r, n, share)
					g := outsideZeros(r, specialDense(r, n, cols), rows)
					for _, i := range rows {
						row := g.Data[int(i)*cols : (int(i)+1)*cols]
						if zeroRows > 0 && r.IntN(zeroRows) == 0 {
							for j := range row {
								row[j] = float32(math.Copysign(0, float64(r.IntN(2)*2-1)))
							}
							if r.IntN(3) == 0 {
								row[r.IntN(cols)] = []float32{float32(math.NaN()), float32(math.Inf(1)), 1e-42}[r.IntN(3)]
							}
						}
					}
					t.Run(fmt.Sprintf("%dx%d/kept=%d0%%/zeros=%d", n, cols, share, zeroRows), func(t *testing.T) {
						tp := NewTape(tensor.Exec{Threads: 1})
						want, wantOK := tp.nonZeroRowsOf(g)
						want = slices.Clone(want)
						got, gotOK := tp.keptNonZeroRows(rows, g)
						if gotOK != wantOK || (wantOK && !slices.Equal(got, want)) {
							t.Fatalf("keptNonZeroRows = %v, %v; nonZeroRowsOf = %v, %v", got, gotOK, want, wantOK)
						}
					})
				}
			}
		}
	}
}
