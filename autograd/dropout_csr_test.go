package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestDropoutCSR(t *testing.T) {
	const p = 0.5
	x := testkit.RandCSR(50, 40, 0.3, 8)
	orig := append([]float32(nil), x.Val...)
	tp := NewTape(tensor.Serial)
	if tp.DropoutCSR(x, p) != x {
		t.Error("DropoutCSR outside training does not return its input")
	}
	tp.Training, tp.RNG = true, rng.New(9)
	y := tp.DropoutCSR(x, p)
	if &y.ColIdx[0] != &x.ColIdx[0] || y.NNZ() != x.NNZ() {
		t.Fatal("DropoutCSR does not share the pattern")
	}
	kept := 0
	for k, v := range y.Val {
		if v != 0 {
			kept++
			if !testkit.Near(v, x.Val[k]/(1-p), 1e-6) {
				t.Fatalf("kept value %d = %v, want %v", k, v, x.Val[k]/(1-p))
			}
		}
	}
	if f := float64(kept) / float64(x.NNZ()); f < 0.4 || f > 0.6 {
		t.Errorf("kept fraction %.3f of %d, want about 0.5", f, x.NNZ())
	}
	// the same draw as dense dropout on the stored values, seen as a vector
	tp2 := NewTape(tensor.Serial)
	tp2.Training, tp2.RNG = true, rng.New(9)
	dense := tp2.Dropout(tp2.Const(&tensor.Dense{Rows: x.NNZ(), Cols: 1, Data: x.Val}), p).Value.Data
	for k := range dense {
		if dense[k] != y.Val[k] {
			t.Fatalf("value %d: DropoutCSR %v, Dropout %v", k, y.Val[k], dense[k])
		}
	}
	for k, v := range orig {
		if x.Val[k] != v {
			t.Fatal("DropoutCSR modified its input")
		}
	}
}
