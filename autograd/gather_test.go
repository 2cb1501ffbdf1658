package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestGatherGrad(t *testing.T) {
	for _, idx := range [][]int32{{0}, {4, 1, 1, 3}, {2, 2, 2, 0, 4, 1, 3}} {
		check(t, "Gather", func(tp *Tape, p []*Var) *Var { return tp.Gather(p[0], idx) }, testkit.RandDense(5, 3, 70))
	}
}

func TestGatherValueAndScatter(t *testing.T) {
	tp := NewTape(tensor.Serial)
	x := NewParam("x", tensor.FromRows([][]float32{{1, 2}, {3, 4}, {5, 6}}))
	y := tp.Gather(x, []int32{2, 0, 2})
	want := []float32{5, 6, 1, 2, 5, 6}
	for k, w := range want {
		if y.Value.Data[k] != w {
			t.Fatalf("Gather = %v, want %v", y.Value.Data, want)
		}
	}
	tp.Backward(tp.Sum(y))
	wantG := []float32{1, 1, 0, 0, 2, 2}
	for k, w := range wantG {
		if x.Grad.Data[k] != w {
			t.Fatalf("∂x = %v, want %v", x.Grad.Data, wantG)
		}
	}
}
