package autograd

import (
	"math"
	"testing"
)

func TestTanh(t *testing.T) {
	checkUnary(t, unaryCase{"Tanh", (*Tape).Tanh,
		[]float32{0, 0.5, -30}, []float32{0, float32(math.Tanh(0.5)), -1}}, 0)
}
