package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/operand"
)

// gemmTile2Kernels emits the two-source 16-column tiles gemm2src<rows>x16.
func gemmTile2Kernels() {
	for rows := 1; rows <= maxRows; rows++ {
		gemmTile2(rows)
	}
}

// gemmTile2 emits gemm2src<rows>x16: gemmTile's "x16" tile whose A is two
// matrices side by side, [A₁ A₂] (rows×(kc+kc2)), read in place from a and
// a2 with one pair of strides: the same loop body as gemmTile's over p =
// 0..kc-1 from a, then over kc2 more from a2, into the same accumulators,
// then gemmTile's fold c = fma(alpha, acc, c). Each element of C thus gets
// the operations a rows×16 tile of the concatenation gives it, in the same
// order, without the concatenation being written (GCNII*'s [ÂH ‖ H⁽⁰⁾]·W).
func gemmTile2(rows int) {
	name := fmt.Sprintf("gemm2src%dx16", rows)
	kernel(name, "func(kc int, a *float32, kc2 int, a2 *float32, rsa, csa int, b *float32, ldb int, c *float32, ldc int, alpha float32)",
		fmt.Sprintf("%s computes a %d-row tile of c += alpha·[a a2]·b (see GemmTile2).", name, rows))

	tileBody(rows, "x16", Mem{}, true)
}
