package tensor

import (
	"math"
	"testing"
)

// TestSpMMStackedColumnsMatchAlone holds the property that batching several
// models' propagations would rest on (issue 37 item 2): Â·[H₁ | … | H_K],
// one SpMM over the models' hidden states side by side, gives each model's
// block of columns the bits of Â·H_k alone, for every block width and at any
// thread count: an output element's chain of operations (the row's entries
// in order, one multiply-add each) does not depend on the width of the
// product nor on the columns beside it.
func TestSpMMStackedColumnsMatchAlone(t *testing.T) {
	r := newRand(37)
	a := randCSR(r, 301, 301, 0.05, true)
	for _, w := range []int{1, 5, 7, 16, 64, 65} {
		for _, k := range []int{2, 3, 7} {
			blocks := make([]*Dense, k)
			stacked := NewDense(a.Cols, k*w)
			for m := range blocks {
				blocks[m] = randDense(r, a.Cols, w)
				for i := range a.Cols {
					copy(stacked.Row(i)[m*w:(m+1)*w], blocks[m].Row(i))
				}
			}
			for _, threads := range []int{1, 2, 3} {
				e := Exec{Threads: threads}
				out := NewDense(a.Rows, k*w)
				SpMM(e, 1, a, stacked, 0, out)
				outT := NewDense(a.Cols, k*w)
				SpMMT(e, 1, a, stacked, 0, outT)
				for m, h := range blocks {
					alone := NewDense(a.Rows, w)
					SpMM(Exec{Threads: 1}, 1, a, h, 0, alone)
					aloneT := NewDense(a.Cols, w)
					SpMMT(Exec{Threads: 1}, 1, a, h, 0, aloneT)
					for i := range a.Rows {
						for j := range w {
							if math.Float32bits(out.At(i, m*w+j)) != math.Float32bits(alone.At(i, j)) {
								t.Fatalf("width %d × %d blocks, %d threads: SpMM block %d (%d,%d) = %v stacked, %v alone", w, k, threads, m, i, j, out.At(i, m*w+j), alone.At(i, j))
							}
							if math.Float32bits(outT.At(i, m*w+j)) != math.Float32bits(aloneT.At(i, j)) {
								t.Fatalf("width %d × %d blocks, %d threads: SpMMT block %d (%d,%d) = %v stacked, %v alone", w, k, threads, m, i, j, outT.At(i, m*w+j), aloneT.At(i, j))
							}
						}
					}
				}
			}
		}
	}
}
