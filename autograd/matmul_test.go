package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestMatMulGrad(t *testing.T) {
	for _, s := range [][3]int{{1, 1, 1}, {3, 4, 2}, {7, 5, 9}} {
		check(t, "MatMul", func(tp *Tape, p []*Var) *Var { return tp.MatMul(p[0], p[1]) },
			testkit.RandDense(s[0], s[1], 1), testkit.RandDense(s[1], s[2], 2))
	}
}

func TestMatMulValue(t *testing.T) {
	tp := NewTape(tensor.Serial)
	a := tp.Const(tensor.FromRows([][]float32{{1, 2}, {3, 4}}))
	b := tp.Const(tensor.FromRows([][]float32{{5}, {6}}))
	got := tp.MatMul(a, b).Value.Data
	if got[0] != 17 || got[1] != 39 {
		t.Errorf("MatMul = %v, want [17 39]", got)
	}
}
