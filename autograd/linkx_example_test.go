package autograd_test

import (
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/tensor"
)

// LINKX's layer on the rows a training step reads: h_A = A·W_A + b_A by
// SpMMBiasRows, then h = ReLU([h_A‖h_X]·W + b + h_A + h_X) by
// LINKXCombineRows, each with the bits of the row operations it replaces
// (SpMMRows and AddBiasRows; ConcatMatMulRows and ReLUAddRows) and +0 in
// the rows left out.
func ExampleTape_LINKXCombineRows() {
	a := tensor.FromTriplets(3, 3, []tensor.Triplet{{Row: 0, Col: 1, Val: 1}, {Row: 1, Col: 0, Val: 1}, {Row: 2, Col: 0, Val: 1}, {Row: 2, Col: 1, Val: 1}})
	rows := []int32{0, 2} // the rows the loss reads
	tape := autograd.NewTape(tensor.Serial)
	wA := autograd.NewParam("wA", tensor.FromRows([][]float32{{1, 0}, {0, 1}, {1, 1}}))
	bA := autograd.NewParam("bA", tensor.FromRows([][]float32{{0.5, -0.5}}))
	hA := tape.SpMMBiasRows(autograd.KeepRows(a, rows), wA, bA)
	hX := tape.Const(tensor.FromRows([][]float32{{1, -1}, {2, 2}, {0, 1}}))
	w := autograd.NewParam("w", tensor.FromRows([][]float32{{1, 0}, {0, 1}, {1, 0}, {0, -1}}))
	b := autograd.NewParam("b", tensor.FromRows([][]float32{{0, 0}}))
	h := tape.LINKXCombineRows(rows, w, b, hA, hX)
	fmt.Println("h_A:", hA.Value.Data)
	fmt.Println("h:", h.Value.Data)
	tape.Backward(tape.Sum(h))
	fmt.Println("∂b:", b.Grad.Data, "∂b_A:", bA.Grad.Data)
	// Output:
	// h_A: [0.5 0.5 0 0 1.5 0.5]
	// h: [3 1 0 0 3 1]
	// ∂b: [2 2] ∂b_A: [4 4]
}
