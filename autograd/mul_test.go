package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// TestMulSquare checks Mul with the same variable on both sides (both
// gradient paths accumulate into one buffer): ∂(x⊙x) = 2x.
func TestMulSquare(t *testing.T) {
	checkOnOddShapes(t, "Mul square", func(tp *Tape, x *Var) *Var { return tp.Mul(x, x) }, 96)
	tp := NewTape(tensor.Serial)
	x := NewParam("x", tensor.FromRows([][]float32{{1, -2, 3}}))
	tp.Backward(tp.Sum(tp.Mul(x, x)))
	for k, v := range x.Value.Data {
		if x.Grad.Data[k] != 2*v {
			t.Fatalf("∂x = %v, want 2x", x.Grad.Data)
		}
	}
}

// TestMulColumnBroadcastGrad multiplies rows by per-row weights (a rows×1
// parameter), as a gating layer does, on a larger odd shape.
func TestMulColumnBroadcastGrad(t *testing.T) {
	check(t, "Mul column", func(tp *Tape, p []*Var) *Var { return tp.Mul(p[0], p[1]) },
		testkit.RandDense(9, 4, 98), testkit.RandDense(9, 1, 99))
}
