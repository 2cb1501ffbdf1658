package autograd

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

func TestOneHotArgmax(t *testing.T) {
	tp := NewTape(tensor.Serial)
	nan := float32(math.NaN())
	x := NewParam("x", tensor.FromRows([][]float32{{1, 3, 2}, {5, 5, 1}, {-1, -1, -1}, {nan, -2, 7}, {nan, nan, nan}}))
	y := tp.OneHotArgmax(x)
	want := []float32{0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0}
	for k, w := range want {
		if y.Value.Data[k] != w {
			t.Fatalf("OneHotArgmax = %v, want %v", y.Value.Data, want)
		}
	}
	if y.RequiresGrad() {
		t.Error("OneHotArgmax must be a constant")
	}
}
