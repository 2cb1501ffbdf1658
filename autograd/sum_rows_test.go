package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

func TestSumRowsGrad(t *testing.T) {
	checkOnOddShapes(t, "SumRows", (*Tape).SumRows, 80)
}

func TestSumRowsValue(t *testing.T) {
	tp := NewTape(tensor.Serial)
	got := tp.SumRows(tp.Const(tensor.FromRows([][]float32{{1, 2}, {3, 4}, {5, 6}}))).Value
	if got.Rows != 1 || got.Data[0] != 9 || got.Data[1] != 12 {
		t.Errorf("SumRows = %v (%s), want [9 12]", got.Data, got.Shape())
	}
}
