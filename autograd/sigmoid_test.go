package autograd

import (
	"math"
	"testing"
)

func TestSigmoid(t *testing.T) {
	checkUnary(t, unaryCase{"Sigmoid", (*Tape).Sigmoid,
		[]float32{0, 2, -2, 100, -100},
		[]float32{0.5, float32(1 / (1 + math.Exp(-2))), float32(1 / (1 + math.Exp(2))), 1, 0}}, 0)
}
