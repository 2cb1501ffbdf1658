package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestSegmentMeanGrad(t *testing.T) {
	seg := []int32{0, 2, -1, 2, 0, 2, 3}
	check(t, "SegmentMean", func(tp *Tape, p []*Var) *Var { return tp.SegmentMean(p[0], seg, 4) }, testkit.RandDense(7, 3, 71))
	check(t, "SegmentMean 1 col", func(tp *Tape, p []*Var) *Var { return tp.SegmentMean(p[0], seg, 5) }, testkit.RandDense(7, 1, 72))
}

func TestSegmentMeanValue(t *testing.T) {
	tp := NewTape(tensor.Serial)
	x := tp.Const(tensor.FromRows([][]float32{{1, 2}, {3, 4}, {5, 6}, {100, 100}}))
	y := tp.SegmentMean(x, []int32{2, 0, 2, -1}, 3)
	want := []float32{3, 4, 0, 0, 3, 4} // segment 1 is empty
	if y.Rows() != 3 || y.Cols() != 2 {
		t.Fatalf("shape %s, want 3×2", y.Value.Shape())
	}
	for k, w := range want {
		if y.Value.Data[k] != w {
			t.Fatalf("SegmentMean = %v, want %v", y.Value.Data, want)
		}
	}
}
