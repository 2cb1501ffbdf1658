package autograd

import (
	"math"
	"testing"
)

func TestReLU(t *testing.T) {
	checkUnary(t, unaryCase{"ReLU", (*Tape).ReLU, []float32{1, -2, 0}, []float32{1, 0, 0}}, 0.1)
}

func TestPositiveMask(t *testing.T) {
	for _, c := range []struct {
		v    float32
		want uint32
	}{{1, 0xFFFFFFFF}, {1e-40, 0xFFFFFFFF}, {0, 0}, {float32(math.Copysign(0, -1)), 0}, {-1e-40, 0}, {-3, 0}, {float32(math.Inf(1)), 0xFFFFFFFF}} {
		if got := positiveMask(c.v); got != c.want {
			t.Errorf("positiveMask(%v) = %#x, want %#x", c.v, got, c.want)
		}
	}
}
