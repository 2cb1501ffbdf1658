package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestL2NormalizeRowsValue(t *testing.T) {
	// Rows (3,4) → (0.6,0.8); (0,0) stays 0 (norm below eps); (0,−2) → (0,−1).
	tp := NewTape(tensor.Serial)
	x := &tensor.Dense{Rows: 3, Cols: 2, Data: []float32{3, 4, 0, 0, 0, -2}}
	got := tp.L2NormalizeRows(tp.Const(x), 1e-9).Value.Data
	want := []float32{0.6, 0.8, 0, 0, 0, -1}
	for k, w := range want {
		if !testkit.Near(got[k], w, 1e-6) {
			t.Errorf("L2NormalizeRows = %v, want %v", got, want)
			break
		}
	}
}

func TestL2NormalizeRowsGrad(t *testing.T) {
	for i, s := range oddShapes {
		// rows kept away from zero norm: entries in ±[0.5, 1.5)
		check(t, "L2NormalizeRows", func(tp *Tape, p []*Var) *Var { return tp.L2NormalizeRows(p[0], 1e-9) },
			randAway(s[0], s[1], uint64(60+i), 0.5))
	}
	// a row below eps is scaled by the constant 1/eps
	small := &tensor.Dense{Rows: 1, Cols: 2, Data: []float32{0.001, -0.002}}
	check(t, "L2NormalizeRows(small)", func(tp *Tape, p []*Var) *Var { return tp.L2NormalizeRows(p[0], 1) }, small)
}
