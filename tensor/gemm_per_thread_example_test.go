package tensor_test

import (
	"fmt"

	"github.com/pcgcn/pcgcn/tensor"
)

// GemmPerThread computes what Gemm computes, bit for bit; only the dealing of
// c's rows among goroutines differs (one piece each, so that each packs
// op(b) once).
func ExampleGemmPerThread() {
	a := tensor.FromRows([][]float32{{1, 2}, {3, 4}})
	b := tensor.FromRows([][]float32{{1, 0}, {1, 1}})
	c := tensor.NewDense(2, 2)
	tensor.GemmPerThread(tensor.Exec{Threads: 2}, false, true, 1, a, b, 0, c)
	fmt.Println(c.Data)
	// Output: [1 3 3 7]
}
