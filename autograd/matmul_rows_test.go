package autograd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

// TestMatMulZeroRowsMatchesGemm: the input gradient of MatMul computed over
// the non-zero rows of ∂out only (gemmNonZeroRows) has the bits of the whole
// product, zero rows of both signs and a buffer full of NaNs beforehand
// included, for widths around the tiles' 16, at 1–3 threads; with too few
// zero rows it declines.
func TestMatMulZeroRowsMatchesGemm(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 40))
	negZero := float32(math.Copysign(0, -1))
	for _, sh := range [][3]int{{64, 16, 5}, {100, 17, 16}, {300, 64, 33}, {257, 40, 70}} {
		m, k, n := sh[0], sh[1], sh[2]
		for _, share := range []int{0, 2, 5, 10} { // tenths of the rows zero
			for threads := 1; threads <= 3; threads++ {
				t.Run(fmt.Sprintf("%dx%dx%d/zero=%d0%%/threads=%d", m, k, n, share, threads), func(t *testing.T) {
					x, b := tensor.NewDense(m, k), tensor.NewDense(n, k)
					specialFillFinite(r, x.Data)
					specialFillFinite(r, b.Data)
					zeros := 0
					for i := 0; i < m; i++ {
						if r.IntN(10) < share {
							zeros++
							for j := range k {
								if r.IntN(2) == 0 {
									x.Data[i*k+j] = negZero
								} else {
									x.Data[i*k+j] = 0
								}
							}
						}
					}
					want, got := tensor.NewDense(m, n), tensor.NewDense(m, n)
					tensor.Gemm(tensor.Exec{Threads: threads}, false, true, 1, x, b, 0, want)
					for i := range got.Data {
						got.Data[i] = float32(math.NaN())
					}
					tp := NewTape(tensor.Exec{Threads: threads})
					did := tp.gemmNonZeroRows(x, b, got)
					if did != (zeros >= m/8) {
						t.Fatalf("gemmNonZeroRows took %v with %d of %d rows zero", did, zeros, m)
					}
					if !did {
						return
					}
					same(t, "c", got.Data, want.Data)
				})
			}
		}
	}
}
