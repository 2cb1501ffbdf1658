package autograd

import "testing"

func TestAddConst(t *testing.T) {
	checkUnary(t, unaryCase{"AddConst", func(tp *Tape, x *Var) *Var { return tp.AddConst(x, 1.5) },
		[]float32{1, -2, 0}, []float32{2.5, -0.5, 1.5}}, 0)
}
