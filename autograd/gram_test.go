package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestGramValue(t *testing.T) {
	// x = [[1,2],[3,4],[5,6]]: xᵀx = [[35,44],[44,56]].
	tp := NewTape(tensor.Serial)
	x := &tensor.Dense{Rows: 3, Cols: 2, Data: []float32{1, 2, 3, 4, 5, 6}}
	got := tp.Gram(tp.Const(x)).Value
	want := []float32{35, 44, 44, 56}
	if got.Rows != 2 || got.Cols != 2 {
		t.Fatalf("Gram shape %s, want 2×2", got.Shape())
	}
	for k, w := range want {
		if !testkit.Near(got.Data[k], w, 1e-5) {
			t.Errorf("Gram = %v, want %v", got.Data, want)
			break
		}
	}
}

func TestGramGrad(t *testing.T) {
	for _, s := range oddShapes {
		check(t, "Gram", func(tp *Tape, p []*Var) *Var { return tp.Gram(p[0]) }, testkit.RandDense(s[0], s[1], uint64(50+s[0])))
	}
}
