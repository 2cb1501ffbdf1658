package autograd_test

import (
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/tensor"
)

// Record a small function of a parameter on a tape and differentiate it:
// loss = Σ (x·w)², whose gradient is ∂loss/∂w = 2·xᵀ·(x·w). For another
// pass, call tape.Reset (which recycles the tape's variables) and w.ZeroGrad
// (gradients accumulate into parameters until zeroed).
func ExampleTape() {
	x := tensor.FromRows([][]float32{
		{1, 0},
		{0, 1},
		{1, 1},
	})
	w := autograd.NewParam("w", tensor.FromRows([][]float32{{1}, {2}}))

	tape := autograd.NewTape(tensor.Serial)
	out := tape.MatMul(tape.Const(x), w) // [1 2 3]ᵀ
	loss := tape.Sum(tape.Mul(out, out))
	tape.Backward(loss)

	fmt.Println("loss:", loss.Scalar())
	fmt.Println("∂loss/∂w:", w.Grad.Data)
	// Output:
	// loss: 14
	// ∂loss/∂w: [8 10]
}

// GradCheck compares the gradients Backward computes with finite
// differences, as every operation's test does. Here it checks a softmax
// of a product, then catches a function whose backward pass is not its
// derivative: a straight-through estimator that returns tanh(x) forward but
// passes the gradient through as if it were x.
func ExampleGradCheck() {
	a := tensor.FromRows([][]float32{{0.5, -0.3}, {0.1, 0.8}, {-0.6, 0.2}})
	b := tensor.FromRows([][]float32{{0.7, -0.4, 0.2}, {0.3, 0.9, -0.5}})
	const eps, atol, rtol = 3e-2, 2e-4, 2e-3 // the settings of the package's tests

	softmaxOfProduct := func(t *autograd.Tape, p []*autograd.Var) *autograd.Var {
		return t.Softmax(t.MatMul(p[0], p[1]))
	}
	res, err := autograd.GradCheck(softmaxOfProduct, []*tensor.Dense{a, b}, eps, atol, rtol)
	fmt.Println("softmax(a·b) passes:", err == nil, "worst error below 1e-4:", res.MaxAbsErr < 1e-4)

	tanhWithIdentityGradient := func(t *autograd.Tape, p []*autograd.Var) *autograd.Var {
		return t.STE(t.Tanh(p[0]), p[0])
	}
	_, err = autograd.GradCheck(tanhWithIdentityGradient, []*tensor.Dense{a}, eps, atol, rtol)
	fmt.Println("STE(tanh(a), a) passes:", err == nil)
	// Output:
	// softmax(a·b) passes: true worst error below 1e-4: true
	// STE(tanh(a), a) passes: false
}
