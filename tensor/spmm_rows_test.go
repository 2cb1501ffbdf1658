package tensor

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// spmmRowByRow is spmm's row loop before the row-range kernel: each row of
// c scaled by beta (cleared for 0), then one SpMMRow call.
func spmmRowByRow(alpha float32, rowPtr, colIdx []int32, val []float32, perm []int32, b *Dense, beta float32, c *Dense) {
	n := b.Cols
	for i := 0; i+1 < len(rowPtr); i++ {
		ci := c.Data[i*n : (i+1)*n]
		scaleRow(ci, beta)
		if alpha == 0 {
			continue
		}
		s, t := rowPtr[i], rowPtr[i+1]
		if perm != nil {
			simd.SpMMRow(alpha, colIdx[s:t], val, perm[s:t], b.Data, n, ci)
		} else {
			simd.SpMMRow(alpha, colIdx[s:t], val[s:t], nil, b.Data, n, ci)
		}
	}
}

// TestSpMMRowsMatchesRowByRow: SpMM and SpMMT (symmetric and through the
// transposed pattern's permutation) give the bits of the row-by-row loop
// they replace, on a graph with empty and long rows, widths above the
// narrow path's (9–70, 64, 128), beta 0 over a c full of NaNs (which must
// not be read), 1 and a scaling one, ±0, infinities and NaNs in b, on 1–3
// goroutines.
func TestSpMMRowsMatchesRowByRow(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels")
	}
	r := newRand(46)
	sym := skewedGraph(150, 5)
	dir := randCSR(r, 150, 120, 0.05, true)
	for _, n := range []int{9, 17, 31, 33, 64, 70, 128} {
		for _, ab := range [][2]float32{{1, 0}, {-0.5, 1}, {2, 0.3}} {
			for _, tc := range []struct {
				name  string
				trans bool
				a     *CSR
			}{{"SpMM", false, sym}, {"SpMM", false, dir}, {"SpMMT", true, sym}, {"SpMMT", true, dir}} {
				a := tc.a
				rows, inner := a.Rows, a.Cols
				rowPtr, colIdx, perm := a.RowPtr, a.ColIdx, []int32(nil)
				if tc.trans {
					rows, inner = inner, rows
					if !a.Symmetric() {
						rowPtr, colIdx, perm = a.transposed()
					}
				}
				b := randDense(r, inner, n)
				b.Data[3] = float32(math.Inf(-1))
				b.Data[7*n+1] = float32(math.NaN())
				b.Data[2*n] = float32(math.Copysign(0, -1))
				c0 := randDense(r, rows, n)
				if ab[1] == 0 {
					for i := range c0.Data {
						c0.Data[i] = float32(math.NaN())
					}
				}
				want := c0.Clone()
				spmmRowByRow(ab[0], rowPtr, colIdx, a.Val, perm, b, ab[1], want)
				for _, th := range []int{1, 2, 3} {
					got := c0.Clone()
					e := Exec{Threads: th}
					if tc.trans {
						SpMMT(e, ab[0], a, b, ab[1], got)
					} else {
						SpMM(e, ab[0], a, b, ab[1], got)
					}
					for i := range want.Data {
						if math.Float32bits(got.Data[i]) != math.Float32bits(want.Data[i]) {
							t.Fatalf("%s of %s, %d columns, alpha %v beta %v, %d threads: element %d is %v, row by row %v",
								tc.name, a.Shape(), n, ab[0], ab[1], th, i, got.Data[i], want.Data[i])
						}
					}
				}
			}
		}
	}
}
