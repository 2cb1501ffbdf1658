package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestSliceColsGrad(t *testing.T) {
	for _, r := range [][2]int{{0, 1}, {1, 4}, {2, 5}} {
		check(t, "SliceCols", func(tp *Tape, p []*Var) *Var { return tp.SliceCols(p[0], r[0], r[1]) }, testkit.RandDense(3, 5, 78))
	}
}

func TestSliceColsValue(t *testing.T) {
	tp := NewTape(tensor.Serial)
	x := tp.Const(tensor.FromRows([][]float32{{1, 2, 3}, {4, 5, 6}}))
	want := []float32{2, 3, 5, 6}
	got := tp.SliceCols(x, 1, 3).Value.Data
	for k, w := range want {
		if got[k] != w {
			t.Fatalf("SliceCols = %v, want %v", got, want)
		}
	}
}
