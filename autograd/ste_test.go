package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// TestSTE checks the straight-through estimator: the value is forward's,
// ∂backward is what ∂out would be, and forward receives nothing.
func TestSTE(t *testing.T) {
	tp := NewTape(tensor.Serial)
	soft := NewParam("soft", testkit.RandDense(4, 3, 90))
	hardSrc := NewParam("hardSrc", testkit.RandDense(4, 3, 91))
	hard := tp.OneHotArgmax(hardSrc)
	fwd := tp.Add(hard, tp.Scale(hardSrc, 0)) // a forward path that would carry gradient
	y := tp.STE(fwd, soft)
	for k := range y.Value.Data {
		if y.Value.Data[k] != hard.Value.Data[k] {
			t.Fatalf("STE value %v, want forward's %v", y.Value.Data, hard.Value.Data)
		}
	}
	r := testkit.RandDense(4, 3, 92)
	tp.Backward(tp.Sum(tp.Mul(tp.Scale(y, 2), tp.Const(r))))
	for k := range r.Data {
		if soft.Grad.Data[k] != 2*r.Data[k] {
			t.Fatalf("∂backward[%d] = %v, want %v", k, soft.Grad.Data[k], 2*r.Data[k])
		}
		if hardSrc.Grad.Data[k] != 0 {
			t.Fatalf("∂forward[%d] = %v, want 0", k, hardSrc.Grad.Data[k])
		}
	}
	// the finite-difference view: when forward has backward's value, STE
	// behaves as backward itself
	check(t, "STE", func(tp *Tape, p []*Var) *Var {
		b := tp.Tanh(tp.Mul(p[0], p[1]))
		return tp.STE(tp.StopGrad(b), b)
	}, testkit.RandDense(3, 2, 93), testkit.RandDense(3, 2, 95))
}
