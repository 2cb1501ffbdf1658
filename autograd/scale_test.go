package autograd

import "testing"

func TestScale(t *testing.T) {
	checkUnary(t, unaryCase{"Scale", func(tp *Tape, x *Var) *Var { return tp.Scale(x, -2.5) },
		[]float32{1, -2, 0}, []float32{-2.5, 5, 0}}, 0)
}
