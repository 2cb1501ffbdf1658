package nn_test

import (
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/optim"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// Fit y = 2·x₁ − 3·x₂ + 1 with a Linear layer, a mean squared error and Adam.
func ExampleLinear() {
	x := tensor.FromRows([][]float32{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {-1, 2}, {2, -1}, {0.5, 0.5}, {-2, -2}})
	y := tensor.NewDense(x.Rows, 1)
	for i := 0; i < x.Rows; i++ {
		y.Data[i] = 2*x.At(i, 0) - 3*x.At(i, 1) + 1
	}
	layer := nn.NewLinear("fit", 2, 1, true, rng.New(1))
	opt := optim.NewAdam(layer.Params(), 0.1, 0)
	tp := autograd.NewTape(tensor.Serial)
	var first, last float32
	for step := 0; step < 500; step++ {
		tp.Reset()
		opt.ZeroGrad()
		diff := tp.Sub(layer.Forward(tp, tp.Const(x)), tp.Const(y))
		loss := tp.Mean(tp.Mul(diff, diff))
		if step == 0 {
			first = loss.Scalar()
		}
		last = loss.Scalar()
		tp.Backward(loss)
		opt.Step()
	}
	w, b := layer.W.Value.Data, layer.B.Value.Data
	fmt.Printf("initial loss above 1: %v, final loss below 1e-6: %v\n", first > 1, last < 1e-6)
	fmt.Printf("w = [%.3f %.3f], b = %.3f\n", w[0], w[1], b[0])
	// Output:
	// initial loss above 1: true, final loss below 1e-6: true
	// w = [2.000 -3.000], b = 1.000
}
