package autograd

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestBCEWithLogitsGrad(t *testing.T) {
	labels := []int32{1, 0, 1, 1, 0}
	check(t, "BCEWithLogits", func(tp *Tape, p []*Var) *Var {
		return tp.BCEWithLogits(p[0], labels, []int32{0, 1, 3, 4, 4})
	}, testkit.RandDense(5, 1, 65))
}

func TestBCEWithLogitsValue(t *testing.T) {
	tp := NewTape(tensor.Serial)
	z := tp.Const(tensor.FromRows([][]float32{{0}, {2}, {-100}, {100}}))
	got := tp.BCEWithLogits(z, []int32{1, 0, 0, 0}, []int32{0, 1, 2, 3}).Scalar()
	want := (math.Ln2 + (2 + math.Log1p(math.Exp(-2))) + 0 + 100) / 4
	if !testkit.Near(got, float32(want), 1e-5) {
		t.Errorf("BCEWithLogits = %v, want %v", got, want)
	}
}
