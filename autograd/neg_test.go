package autograd

import "testing"

func TestNeg(t *testing.T) {
	checkUnary(t, unaryCase{"Neg", (*Tape).Neg, []float32{1, -2, 0}, []float32{-1, 2, 0}}, 0)
}
