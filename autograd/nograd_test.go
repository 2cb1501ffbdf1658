package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// TestNoGrad checks the evaluation mode: nothing is recorded, no output needs
// gradient, no gradient buffer is taken from the tape and Backward refuses.
func TestNoGrad(t *testing.T) {
	g := newTestGraph(300, 16, 8, 5)
	tp := NewTape(tensor.Serial)
	tp.Training, tp.RNG = true, rng.New(1)
	loss := g.forward(tp)
	if !loss.RequiresGrad() || len(tp.nodes) == 0 {
		t.Fatal("recording mode recorded nothing")
	}
	withGrad, lossValue := len(tp.used), loss.Scalar()

	tp.Reset()
	tp.SetNoGrad(true)
	if !tp.NoGrad() {
		t.Fatal("NoGrad() false after SetNoGrad(true)")
	}
	tp.RNG = rng.New(1)
	loss2 := g.forward(tp)
	if loss2.RequiresGrad() || len(tp.nodes) != 0 {
		t.Errorf("no-grad forward recorded %d operations", len(tp.nodes))
	}
	if len(tp.used) != withGrad {
		t.Errorf("no-grad forward took %d buffers, recording forward %d: want the same (values only)", len(tp.used), withGrad)
	}
	if loss2.Scalar() != lossValue {
		t.Errorf("no-grad loss %v, recorded loss %v", loss2.Scalar(), lossValue)
	}
	for _, p := range g.params {
		for _, v := range p.Grad.Data {
			if v != 0 {
				t.Fatalf("%s got a gradient in no-grad mode", p.Name)
			}
		}
	}
	testkit.Panics(t, "Backward on a no-grad loss", func() { tp.Backward(loss2) })
	// every op's output, not only the loss, needs no gradient
	x := NewParam("x", testkit.RandDense(4, 3, 1))
	for name, v := range map[string]*Var{
		"MatMul": tp.MatMul(x, tp.Const(testkit.RandDense(3, 2, 2))), "ReLU": tp.ReLU(x), "Softmax": tp.Softmax(x),
		"Gather": tp.Gather(x, []int32{1}), "STE": tp.STE(x, x), "SumRows": tp.SumRows(x),
	} {
		if v.RequiresGrad() {
			t.Errorf("%s output requires gradient in no-grad mode", name)
		}
	}
}
