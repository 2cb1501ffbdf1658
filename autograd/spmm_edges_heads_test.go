package autograd

import (
	"fmt"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestSpMMEdgesHeadsGrad(t *testing.T) {
	for _, s := range [][4]int{{5, 6, 1, 3}, {7, 7, 3, 2}, {4, 9, 2, 5}} {
		pat := testkit.RandCSR(s[0], s[1], 0.5, 41)
		h, ch := s[2], s[3]
		check(t, fmt.Sprintf("SpMMEdgesHeads %v", s), func(tp *Tape, p []*Var) *Var { return tp.SpMMEdgesHeads(pat, p[0], p[1]) },
			testkit.RandDense(pat.NNZ(), h, 42), testkit.RandDense(s[1], h*ch, 43))
	}
}

// TestSpMMEdgesHeadsMatchesPerHead checks that the fused operation gives the
// bits of slicing each head, SpMMEdges and ConcatCols, forward and backward,
// at one and several threads (and, under -tags purego, on the portable path).
func TestSpMMEdgesHeadsMatchesPerHead(t *testing.T) {
	pat := testkit.RandCSR(301, 301, 0.05, 44)
	const h, ch = 8, 8
	alpha, z, w := testkit.RandDense(pat.NNZ(), h, 45), testkit.RandDense(301, h*ch, 46), testkit.RandDense(301, h*ch, 47)
	run := func(fused bool, threads int) [][]float32 {
		tp := NewTape(tensor.Exec{Threads: threads})
		pa, pz := NewParam("alpha", alpha.Clone()), NewParam("z", z.Clone())
		var y *Var
		if fused {
			y = tp.SpMMEdgesHeads(pat, pa, pz)
		} else {
			outs := make([]*Var, h)
			for k := range outs {
				outs[k] = tp.SpMMEdges(pat, tp.SliceCols(pa, k, k+1), tp.SliceCols(pz, k*ch, (k+1)*ch))
			}
			y = tp.ConcatCols(outs...)
		}
		out := y.Value.Clone().Data
		tp.Backward(tp.Sum(tp.Mul(y, tp.Const(w))))
		return [][]float32{out, pa.Grad.Data, pz.Grad.Data}
	}
	want := run(false, 1)
	for _, threads := range []int{1, 3} {
		got := run(true, threads)
		for k, name := range []string{"output", "∂alpha", "∂z"} {
			for i := range want[k] {
				if got[k][i] != want[k][i] {
					t.Fatalf("threads %d, %s element %d: fused %v, per head %v", threads, name, i, got[k][i], want[k][i])
				}
			}
		}
	}
}
