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

// A pre-norm residual block as the classic baselines build it: LayerNorm,
// then the feed-forward module with GELU, added to the block's input.
func ExampleFeedForward() {
	g := rng.New(1)
	norm := nn.NewNorm("block1.norm", nn.NormLayer, 4)
	ffn := nn.NewFeedForward("block1.ffn", 4, 4, 4, g)
	t := autograd.NewTape(tensor.Serial)
	x := t.Const(tensor.FromRows([][]float32{{1, 2, 3, 4}, {0, -1, 0, 1}}))
	h := norm.Forward(t, x)
	fmt.Printf("normalised row 0: %.3f\n", h.Value.Row(0))
	y := t.Add(x, ffn.Forward(t, h, 0.2, t.GELU)) // dropout is off outside training
	fmt.Println(y.Value.Shape(), len(norm.Params())+len(ffn.Params()), "parameters")
	// Output:
	// normalised row 0: [-1.342 -0.447 0.447 1.342]
	// 2×4 6 parameters
}
