package autograd

import "testing"

func TestReLU(t *testing.T) {
	checkUnary(t, unaryCase{"ReLU", (*Tape).ReLU, []float32{1, -2, 0}, []float32{1, 0, 0}}, 0.1)
}
