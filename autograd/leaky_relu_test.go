package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

func TestLeakyReLU(t *testing.T) {
	checkUnary(t, unaryCase{"LeakyReLU", func(tp *Tape, x *Var) *Var { return tp.LeakyReLU(x, 0.2) },
		[]float32{1, -2, 0}, []float32{1, -0.4, 0}}, 0.1)
}

// TestLeakyReLUBranchless checks the branchless forms against the definition
// on values of both signs, zeros and extremes.
func TestLeakyReLUBranchless(t *testing.T) {
	xs := []float32{3, -3, 0, 1e-30, -1e-30, 3e38, -3e38, 0.5, -0.5}
	tp := NewTape(tensor.Serial)
	x := NewParam("x", tensor.FromRows([][]float32{xs}))
	y := tp.LeakyReLU(x, 0.2)
	tp.Backward(tp.Sum(y))
	for i, v := range xs {
		want, wantG := v, float32(1)
		if !(v > 0) {
			want, wantG = 0.2*v, 0.2
		}
		if y.Value.Data[i] != want || x.Grad.Data[i] != wantG {
			t.Errorf("x=%g: y %g grad %g, want %g %g", v, y.Value.Data[i], x.Grad.Data[i], want, wantG)
		}
	}
}
