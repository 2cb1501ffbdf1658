package autograd

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestSoftmaxGrad(t *testing.T) {
	checkOnOddShapes(t, "Softmax", (*Tape).Softmax, 40)
}

func TestSoftmaxValue(t *testing.T) {
	tp := NewTape(tensor.Serial)
	x := tp.Const(tensor.FromRows([][]float32{{0, 0}, {1000, 1000 + float32(math.Log(3))}}))
	got := tp.Softmax(x).Value.Data
	want := []float32{0.5, 0.5, 0.25, 0.75}
	for k, w := range want {
		if !testkit.Near(got[k], w, 1e-4) {
			t.Fatalf("Softmax = %v, want %v", got, want)
		}
	}
}
