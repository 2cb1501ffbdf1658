package optim_test

import (
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/optim"
	"github.com/pcgcn/pcgcn/tensor"
)

// Minimise (w − 3)² with Adam: each step zeroes the gradients, records the
// loss on a tape, runs Backward and applies the update.
func ExampleAdam() {
	w := autograd.NewParam("w", tensor.FromRows([][]float32{{0}}))
	opt := optim.NewAdam([]*autograd.Var{w}, 0.1, 0) // lr 0.1, no weight decay
	tape := autograd.NewTape(tensor.Serial)
	for step := 0; step < 300; step++ {
		tape.Reset()
		opt.ZeroGrad()
		diff := tape.AddConst(w, -3)
		loss := tape.Sum(tape.Mul(diff, diff))
		tape.Backward(loss)
		opt.Step()
	}
	fmt.Printf("after %d steps: w = %.2f\n", opt.Steps(), w.Value.Data[0])
	// Output:
	// after 300 steps: w = 3.00
}

// Parameter groups carry their own learning rate and weight decay, and a
// schedule can change them between steps.
func ExampleAdam_AddGroup() {
	encoder := autograd.NewParam("encoder.W", tensor.NewDense(4, 2))
	classifier := autograd.NewParam("classifier.W", tensor.NewDense(2, 3))
	opt := optim.NewAdam([]*autograd.Var{encoder}, 0.01, 5e-4)
	opt.AddGroup([]*autograd.Var{classifier}, 0.01, 0) // no decay on the classifier

	opt.SetLR(0.005) // every group
	for _, g := range opt.Groups() {
		fmt.Printf("%s: lr %g, weight decay %g\n", g.Params()[0].Name, g.LR, g.WeightDecay)
	}
	// Output:
	// encoder.W: lr 0.005, weight decay 0.0005
	// classifier.W: lr 0.005, weight decay 0
}
