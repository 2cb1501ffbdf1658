package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestSpMMEdgesGrad(t *testing.T) {
	for _, s := range [][3]int{{1, 1, 1}, {5, 4, 3}, {7, 9, 2}} {
		pat := testkit.RandCSR(s[0], s[1], 0.4, 7)
		check(t, "SpMMEdges", func(tp *Tape, p []*Var) *Var { return tp.SpMMEdges(pat, p[0], p[1]) },
			testkit.RandDense(pat.NNZ(), 1, 8), testkit.RandDense(s[1], s[2], 9))
	}
}

// TestSpMMEdgesIgnoresSymmetricMark: the pattern of a symmetric adjacency is
// marked symmetric, but learned values are not; ∂x must use the true
// transpose.
func TestSpMMEdgesIgnoresSymmetricMark(t *testing.T) {
	pat := tensor.FromTriplets(3, 3, []tensor.Triplet{
		{Row: 0, Col: 1, Val: 1}, {Row: 1, Col: 0, Val: 1}, {Row: 1, Col: 2, Val: 1}, {Row: 2, Col: 1, Val: 1},
	}).MarkSymmetric()
	check(t, "SpMMEdges on symmetric pattern", func(tp *Tape, p []*Var) *Var { return tp.SpMMEdges(pat, p[0], p[1]) },
		testkit.RandDense(pat.NNZ(), 1, 10), testkit.RandDense(3, 2, 11))
}

// TestSpMMEdgesMatchesSpMM: with vals equal to the pattern's values, the
// product equals SpMM.
func TestSpMMEdgesMatchesSpMM(t *testing.T) {
	tp := NewTape(tensor.Serial)
	pat := testkit.RandCSR(6, 5, 0.5, 12)
	x := tp.Const(testkit.RandDense(5, 3, 13))
	vals := tp.Const(&tensor.Dense{Rows: pat.NNZ(), Cols: 1, Data: pat.Val})
	a, b := tp.SpMMEdges(pat, vals, x).Value.Data, tp.SpMM(pat, x).Value.Data
	for k := range a {
		if a[k] != b[k] {
			t.Fatalf("element %d: SpMMEdges %v, SpMM %v", k, a[k], b[k])
		}
	}
}
