package autograd

import "testing"

func TestLeakyReLU(t *testing.T) {
	checkUnary(t, unaryCase{"LeakyReLU", func(tp *Tape, x *Var) *Var { return tp.LeakyReLU(x, 0.2) },
		[]float32{1, -2, 0}, []float32{1, -0.4, 0}}, 0.1)
}
