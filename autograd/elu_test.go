package autograd

import (
	"math"
	"testing"
)

func TestELU(t *testing.T) {
	checkUnary(t, unaryCase{"ELU", func(tp *Tape, x *Var) *Var { return tp.ELU(x, 1.5) },
		[]float32{1, -2, 0}, []float32{1, float32(1.5 * (math.Exp(-2) - 1)), 0}}, 0.1)
}
