package autograd

import (
	"math"
	"testing"
)

func TestSoftplus(t *testing.T) {
	checkUnary(t, unaryCase{"Softplus", (*Tape).Softplus,
		[]float32{0, 2, -2, 30, -100},
		[]float32{float32(math.Log(2)), float32(math.Log1p(math.Exp(2))), float32(math.Log1p(math.Exp(-2))), 30, 0}}, 0)
}
