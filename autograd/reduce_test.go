package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestSumMeanGrad(t *testing.T) {
	for i, s := range oddShapes {
		x := testkit.RandDense(s[0], s[1], uint64(85+i))
		check(t, "Sum", func(tp *Tape, p []*Var) *Var { return tp.Sum(p[0]) }, x)
		check(t, "Mean", func(tp *Tape, p []*Var) *Var { return tp.Mean(p[0]) }, x)
	}
}

func TestSumMeanValue(t *testing.T) {
	tp := NewTape(tensor.Serial)
	x := tp.Const(tensor.FromRows([][]float32{{1, 2}, {3, 6}}))
	if s, m := tp.Sum(x).Scalar(), tp.Mean(x).Scalar(); s != 12 || m != 3 {
		t.Errorf("Sum %v Mean %v, want 12 and 3", s, m)
	}
	if m := tp.Mean(tp.Const(tensor.NewDense(0, 3))).Scalar(); m != 0 {
		t.Errorf("Mean of nothing = %v, want 0", m)
	}
}
