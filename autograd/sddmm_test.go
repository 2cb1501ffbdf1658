package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestSDDMMGrad(t *testing.T) {
	for _, s := range [][3]int{{1, 1, 1}, {5, 4, 3}, {7, 9, 2}} {
		pat := testkit.RandCSR(s[0], s[1], 0.4, 14)
		check(t, "SDDMM", func(tp *Tape, p []*Var) *Var { return tp.SDDMM(pat, p[0], p[1]) },
			testkit.RandDense(s[0], s[2], 15), testkit.RandDense(s[1], s[2], 16))
	}
	// symmetric-marked pattern: the backward must not trust the mark
	sym := tensor.FromTriplets(3, 3, []tensor.Triplet{{Row: 0, Col: 2, Val: 1}, {Row: 2, Col: 0, Val: 1}, {Row: 1, Col: 1, Val: 1}}).MarkSymmetric()
	check(t, "SDDMM symmetric", func(tp *Tape, p []*Var) *Var { return tp.SDDMM(sym, p[0], p[1]) },
		testkit.RandDense(3, 2, 17), testkit.RandDense(3, 2, 18))
}

func TestSDDMMValue(t *testing.T) {
	tp := NewTape(tensor.Serial)
	pat := tensor.FromTriplets(2, 3, []tensor.Triplet{{Row: 0, Col: 2, Val: 9}, {Row: 1, Col: 0, Val: 9}, {Row: 1, Col: 1, Val: 9}})
	a := tp.Const(tensor.FromRows([][]float32{{1, 2}, {3, 4}}))
	b := tp.Const(tensor.FromRows([][]float32{{1, 0}, {0, 1}, {1, 1}}))
	out := tp.SDDMM(pat, a, b)
	want := []float32{3, 3, 4}
	if out.Rows() != 3 || out.Cols() != 1 {
		t.Fatalf("shape %s, want 3×1", out.Value.Shape())
	}
	for k, w := range want {
		if out.Value.Data[k] != w {
			t.Fatalf("SDDMM = %v, want %v", out.Value.Data, want)
		}
	}
}
