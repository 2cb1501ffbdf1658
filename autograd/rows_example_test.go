package autograd_test

import (
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/tensor"
)

// A row-wise model whose loss reads only some rows (a training step over the
// training nodes) can compute only those: MatMulRows leaves +0 in the other
// rows, and the gradient is MatMul's, bit for bit, since ∂out is zero there.
// SpMMRows does the same for a sparse left operand, kept once by KeepRows.
func ExampleTape_MatMulRows() {
	x := tensor.FromRows([][]float32{{1, 0}, {0, 1}, {1, 1}})
	a := tensor.FromTriplets(3, 2, []tensor.Triplet{{Row: 0, Col: 0, Val: 1}, {Row: 2, Col: 1, Val: 1}})
	w := autograd.NewParam("w", tensor.FromRows([][]float32{{1, 2}, {3, 4}}))
	rows := []int32{0, 2} // the rows the loss reads

	tape := autograd.NewTape(tensor.Serial)
	dense := tape.MatMulRows(tape.Const(x), w, rows)
	sparse := tape.SpMMRows(autograd.KeepRows(a, rows), w)
	fmt.Println("x·w on rows 0 and 2:", dense.Value.Data)
	fmt.Println("a·w on rows 0 and 2:", sparse.Value.Data)
	tape.Backward(tape.Sum(dense))
	fmt.Println("∂Σ(x·w)/∂w over those rows:", w.Grad.Data)
	// Output:
	// x·w on rows 0 and 2: [1 2 0 0 4 6]
	// a·w on rows 0 and 2: [1 2 0 0 3 4]
	// ∂Σ(x·w)/∂w over those rows: [2 2 1 1]
}

// ReLUAddScaled is ReLU(AddScaled(a, ca, b, cb)) in one pass each way, with
// the same bits (GCNII's H = ReLU(β·SW + (1−β)·S)).
func ExampleTape_ReLUAddScaled() {
	tape := autograd.NewTape(tensor.Serial)
	a := tape.Const(tensor.FromRows([][]float32{{1, -2, 3}}))
	b := tape.Const(tensor.FromRows([][]float32{{1, 1, -8}}))
	fmt.Println(tape.ReLUAddScaled(a, 0.5, b, 0.5).Value.Data)
	// Output: [1 0 0]
}
