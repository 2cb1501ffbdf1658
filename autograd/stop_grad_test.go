package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestStopGrad(t *testing.T) {
	tp := NewTape(tensor.Serial)
	x := NewParam("x", testkit.RandDense(3, 2, 94))
	s := tp.StopGrad(x)
	if s.RequiresGrad() || s.Value != x.Value {
		t.Fatal("StopGrad must share the value and need no gradient")
	}
	tp.Backward(tp.Sum(tp.Mul(x, s))) // ∂x = s = x, not 2x
	for k, v := range x.Value.Data {
		if x.Grad.Data[k] != v {
			t.Fatalf("∂x[%d] = %v, want %v", k, x.Grad.Data[k], v)
		}
	}
}
