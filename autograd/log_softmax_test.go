package autograd

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestLogSoftmaxGrad(t *testing.T) {
	checkOnOddShapes(t, "LogSoftmax", (*Tape).LogSoftmax, 50)
}

// TestLogSoftmaxValue checks exact values and stability for huge inputs,
// where a naive log(softmax) gives −Inf or NaN.
func TestLogSoftmaxValue(t *testing.T) {
	tp := NewTape(tensor.Serial)
	x := tp.Const(tensor.FromRows([][]float32{{0, 0}, {-1e4, 1e4}, {3, 3 + float32(math.Log(3))}}))
	got := tp.LogSoftmax(x).Value.Data
	want := []float32{float32(-math.Ln2), float32(-math.Ln2), -2e4, 0, float32(math.Log(0.25)), float32(math.Log(0.75))}
	for k, w := range want {
		if !testkit.Near(got[k], w, 1e-4) {
			t.Fatalf("LogSoftmax = %v, want %v", got, want)
		}
	}
}
