package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestMatMulNTGrad(t *testing.T) {
	for _, s := range [][3]int{{1, 1, 1}, {3, 4, 2}, {7, 5, 3}} {
		check(t, "MatMulNT", func(tp *Tape, p []*Var) *Var { return tp.MatMulNT(p[0], p[1]) },
			testkit.RandDense(s[0], s[1], 1), testkit.RandDense(s[2], s[1], 2))
	}
}

func TestMatMulNTValue(t *testing.T) {
	tp := NewTape(tensor.Serial)
	a := tp.Const(tensor.FromRows([][]float32{{1, 2}, {3, 4}}))
	b := tp.Const(tensor.FromRows([][]float32{{1, 0}, {0, 1}, {1, 1}}))
	want := []float32{1, 2, 3, 3, 4, 7}
	got := tp.MatMulNT(a, b)
	if got.Rows() != 2 || got.Cols() != 3 {
		t.Fatalf("shape %s, want 2×3", got.Value.Shape())
	}
	for k, w := range want {
		if got.Value.Data[k] != w {
			t.Fatalf("MatMulNT = %v, want %v", got.Value.Data, want)
		}
	}
}
