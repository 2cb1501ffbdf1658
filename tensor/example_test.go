package tensor_test

import (
	"fmt"

	"github.com/pcgcn/pcgcn/tensor"
)

// Propagate node features over a graph and project them: a sparse
// adjacency built from (row, col, value) triplets times a dense feature
// matrix (SpMM), then a dense product with a weight matrix (Gemm). The Exec
// lets the kernels use two goroutines (products this small run on one
// anyway); any thread count gives the same bits.
func Example() {
	// a path 0 – 1 – 2 as a symmetric 0/1 adjacency
	adj := tensor.FromTriplets(3, 3, []tensor.Triplet{
		{Row: 0, Col: 1, Val: 1}, {Row: 1, Col: 0, Val: 1},
		{Row: 1, Col: 2, Val: 1}, {Row: 2, Col: 1, Val: 1},
	})
	features := tensor.FromRows([][]float32{
		{1, 0},
		{0, 1},
		{2, 2},
	})
	exec := tensor.Exec{Threads: 2}

	// aggregated = 1·adj·features + 0·aggregated: each node sums its neighbours
	aggregated := tensor.NewDense(3, 2)
	tensor.SpMM(exec, 1, adj, features, 0, aggregated)

	// projected = aggregated·weights
	weights := tensor.FromRows([][]float32{
		{1, -1},
		{0.5, 2},
	})
	projected := tensor.NewDense(3, 2)
	tensor.Gemm(exec, false, false, 1, aggregated, weights, 0, projected)

	fmt.Println("adjacency:", adj.Shape())
	for i := 0; i < aggregated.Rows; i++ {
		fmt.Println(aggregated.Row(i), "→", projected.Row(i))
	}
	// Output:
	// adjacency: 3×3 (nnz 4)
	// [0 1] → [0.5 2]
	// [3 2] → [4 1]
	// [0 1] → [0.5 2]
}

// A training loop makes hundreds of kernel calls per step; StartExec parks
// worker goroutines once so that each call does not start its own. The
// result is the same as on the calling goroutine alone (tensor.Serial).
func ExampleStartExec() {
	exec, stop := tensor.StartExec(4)
	defer stop()

	a := tensor.NewDense(128, 64)
	b := tensor.NewDense(64, 32)
	for i := range a.Data {
		a.Data[i] = float32(i%7) - 3
	}
	for i := range b.Data {
		b.Data[i] = float32(i%5) * 0.25
	}
	parallel, serial := tensor.NewDense(128, 32), tensor.NewDense(128, 32)
	for step := 0; step < 100; step++ {
		tensor.Gemm(exec, false, false, 1, a, b, 0, parallel)
	}
	tensor.Gemm(tensor.Serial, false, false, 1, a, b, 0, serial)

	same := true
	for i := range serial.Data {
		same = same && parallel.Data[i] == serial.Data[i]
	}
	fmt.Println("goroutines:", exec.N())
	fmt.Println("identical to the serial product:", same)
	// Output:
	// goroutines: 4
	// identical to the serial product: true
}

// ExampleSpMMSkipZeros multiplies a sparse matrix whose values dropout has
// mostly set to zero: the zero entries are skipped where that gives the
// whole product's bits (here b is finite and c is overwritten), and the
// result is SpMM's.
func ExampleSpMMSkipZeros() {
	a, err := tensor.NewCSR(2, 3, []int32{0, 2, 3}, []int32{0, 2, 1}, []float32{0, 2, 0})
	if err != nil {
		panic(err)
	}
	b := tensor.NewDense(3, 2)
	copy(b.Data, []float32{1, 2, 3, 4, 5, 6})
	c, want := tensor.NewDense(2, 2), tensor.NewDense(2, 2)
	var z tensor.ZeroSkip // reused from call to call
	tensor.SpMMSkipZeros(tensor.Serial, 1, a, b, 0, c, &z)
	tensor.SpMM(tensor.Serial, 1, a, b, 0, want)
	fmt.Println(c.Data, want.Data)
	// Output: [10 12 0 0] [10 12 0 0]
}
