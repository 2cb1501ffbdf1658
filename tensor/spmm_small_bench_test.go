package tensor

import (
	"fmt"
	"testing"
)

// BenchmarkSpMMSmallGraph is one thread's SpMM over a graph of Chameleon's
// size (2,277 nodes and about 36,000 edges, random: some 75,000 entries
// with the self-loops) at PCGCN's widths: 64 (the hidden state) and 5 (the class
// scores S), the products that dominate an epoch on the paper's small
// graphs (issue 37). At width 5, "rows" is spmm's row-by-row loop and
// "narrow" SpMM's path (four rows at a time by degree), which give the same
// bits.
func BenchmarkSpMMSmallGraph(b *testing.B) {
	a := uniformGraph(2277, 32, 7)
	a.MarkSymmetric()
	e := Exec{Threads: 1}
	for _, d := range []int{64, 5} {
		x := randDense(newRand(1), a.Cols, d)
		c := NewDense(a.Rows, d)
		b.Run(fmt.Sprintf("nnz%d_d%d", a.NNZ(), d), func(b *testing.B) {
			for b.Loop() {
				SpMM(e, 1, a, x, 0, c)
			}
			reportMACs(b, a.NNZ()*d)
		})
		if d <= spmmNarrowMaxCols {
			b.Run(fmt.Sprintf("nnz%d_d%d_rows", a.NNZ(), d), func(b *testing.B) {
				for b.Loop() {
					spmm(e, 1, a.RowPtr, a.ColIdx, a.Val, nil, x, 0, c)
				}
				reportMACs(b, a.NNZ()*d)
			})
		}
	}
}
