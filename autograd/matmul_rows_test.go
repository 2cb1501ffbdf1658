package autograd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// TestMatMulZeroRowsMatchesGemm: the input gradient of MatMul computed over
// the non-zero rows of ∂out only (gemmNonZeroRows) has the bits of the whole
// product, zero rows of both signs and a buffer full of NaNs beforehand
// included, for widths around the tiles' 16, at 1–3 threads; with too few
// zero rows it declines. The weight gradient over the same rows
// (gemmTransANonZeroRows) has the bits of the whole product for beta 0, 1
// and ½ over a c holding zeros of both signs, blocks of the inner index
// without any non-zero row included.
func TestMatMulZeroRowsMatchesGemm(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 40))
	negZero := float32(math.Copysign(0, -1))
	for _, sh := range [][3]int{{64, 16, 5}, {100, 17, 16}, {300, 64, 33}, {257, 40, 70}, {900, 24, 20}} {
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
					rows, did := tp.nonZeroRowsOf(x)
					if did != (zeros >= m/8) {
						t.Fatalf("nonZeroRowsOf took %v with %d of %d rows zero", did, zeros, m)
					}
					if !did {
						return
					}
					tp.gemmNonZeroRows(rows, x, b, got)
					same(t, "c", got.Data, want.Data)
					// the weight gradient xᵀ·g over the same rows, g's zero rows
					// being x's here, for each beta, into c of all signs
					g := tensor.NewDense(m, n)
					specialFillFinite(r, g.Data)
					for _, beta := range []float32{0, 1, 0.5} {
						if !simd.Enabled() {
							break // matMulBack takes it with the vector kernels only
						}
						want, got := tensor.NewDense(k, n), tensor.NewDense(k, n)
						specialFillFinite(r, want.Data)
						copy(got.Data, want.Data)
						tensor.Gemm(tensor.Exec{Threads: threads}, true, false, 1, x, g, beta, want)
						tp.gemmTransANonZeroRows(rows, x, g, beta, got)
						same(t, fmt.Sprintf("xᵀ·g, beta %v", beta), got.Data, want.Data)
					}
				})
			}
		}
	}
}

// TestNonZeroRowsVectorMatchesGo: nonZeroRows through simd.NonZeroRowList
// lists the rows of its portable loop, and declines exactly when that loop
// does (more than most non-zero rows), for widths 16–70 and rows that are
// all zeros of both signs, dense, or zero but for one element (a NaN, a
// subnormal or a −0 among zeros), and a list grown from a smaller scratch.
func TestNonZeroRowsVectorMatchesGo(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels in this build")
	}
	r := rand.New(rand.NewPCG(44, 37))
	negZero := float32(math.Copysign(0, -1))
	odd := []float32{float32(math.NaN()), math.Float32frombits(1), math.Float32frombits(0x80000001), float32(math.Inf(-1)), 1}
	tp, ref := NewTape(tensor.Serial), NewTape(tensor.Serial)
	for _, k := range []int{16, 17, 23, 24, 31, 64, 70} {
		for _, share := range []int{0, 1, 5, 9, 10} { // tenths of the rows zero
			m := 64 + r.IntN(700)
			x := tensor.NewDense(m, k)
			for i := 0; i < m; i++ {
				row := x.Data[i*k : (i+1)*k]
				if r.IntN(10) < share {
					for j := range row {
						if r.IntN(2) == 0 {
							row[j] = negZero
						}
					}
					if r.IntN(4) == 0 {
						row[r.IntN(k)] = odd[r.IntN(len(odd))]
					}
				} else {
					specialFillFinite(r, row)
				}
			}
			for _, most := range []int{m, m - m/8, m / 2, 0} {
				want, wantOK := ref.nonZeroRowsGo(x, most)
				got, ok := tp.nonZeroRows(x, most)
				if ok != wantOK || ok && !slices.Equal(got, want) {
					t.Fatalf("k=%d zero=%d0%% most=%d: got %v (%v), want %v (%v)", k, share, most, got, ok, want, wantOK)
				}
			}
		}
	}
}
