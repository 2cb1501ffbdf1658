package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestConcatColsGrad(t *testing.T) {
	check(t, "ConcatCols", func(tp *Tape, p []*Var) *Var { return tp.ConcatCols(p[0], p[1], p[2]) },
		testkit.RandDense(5, 2, 73), testkit.RandDense(5, 1, 74), testkit.RandDense(5, 3, 75))
	// an input used twice and a constant block
	c := testkit.RandDense(3, 2, 76)
	check(t, "ConcatCols repeated", func(tp *Tape, p []*Var) *Var { return tp.ConcatCols(p[0], tp.Const(c), p[0]) },
		testkit.RandDense(3, 1, 77))
}

func TestConcatColsValue(t *testing.T) {
	tp := NewTape(tensor.Serial)
	a := tp.Const(tensor.FromRows([][]float32{{1}, {2}}))
	b := tp.Const(tensor.FromRows([][]float32{{3, 4}, {5, 6}}))
	want := []float32{1, 3, 4, 2, 5, 6}
	got := tp.ConcatCols(a, b).Value.Data
	for k, w := range want {
		if got[k] != w {
			t.Fatalf("ConcatCols = %v, want %v", got, want)
		}
	}
}
