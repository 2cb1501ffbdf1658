package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestSumRowsGrad(t *testing.T) {
	for i, s := range oddShapes {
		check(t, "SumRows", func(tp *Tape, p []*Var) *Var { return tp.SumRows(p[0]) }, testkit.RandDense(s[0], s[1], uint64(80+i)))
	}
}

func TestSumRowsValue(t *testing.T) {
	tp := NewTape(tensor.Serial)
	got := tp.SumRows(tp.Const(tensor.FromRows([][]float32{{1, 2}, {3, 4}, {5, 6}}))).Value
	if got.Rows != 1 || got.Data[0] != 9 || got.Data[1] != 12 {
		t.Errorf("SumRows = %v (%s), want [9 12]", got.Data, got.Shape())
	}
}
