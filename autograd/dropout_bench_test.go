package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// BenchmarkDropout times the forward and backward of dropout on a
// Chameleon-sized hidden layer (2277×64) on one goroutine.
func BenchmarkDropout(b *testing.B) {
	x := NewParam("x", tensor.NewDense(2277, 64))
	for i := range x.Value.Data {
		x.Value.Data[i] = float32(i%7) - 3
	}
	t := NewTape(tensor.Serial)
	t.Training = true
	t.RNG = rng.New(1)
	b.SetBytes(int64(4 * len(x.Value.Data)))
	for b.Loop() {
		t.Reset()
		y := t.Dropout(x, 0.5)
		t.Backward(t.Sum(y))
	}
}
