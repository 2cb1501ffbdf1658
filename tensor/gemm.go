package tensor

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// Gemm computes c = alpha·op(a)·op(b) + beta·c, where op(x) is x or xᵀ as
// transA/transB say. It panics with both shapes if they do not fit.
// beta == 0 overwrites c (NaNs in c are not propagated); alpha == 0 or an
// empty inner dimension only scales c.
//
// On CPUs with AVX2 and FMA (and without the purego build tag) the product
// runs through cache-blocked vector tiles (see gemmBlocked); otherwise
// through portable loops (gemmPortable). Either way each element of c is
// computed by one goroutine with an operation order that depends only on the
// shapes, so results do not depend on e.Threads.
func Gemm(e Exec, transA, transB bool, alpha float32, a, b *Dense, beta float32, c *Dense) {
	m, k := a.Rows, a.Cols
	if transA {
		m, k = k, m
	}
	kb, n := b.Rows, b.Cols
	if transB {
		kb, n = n, kb
	}
	if k != kb || c.Rows != m || c.Cols != n {
		panic(fmt.Sprintf("tensor: Gemm shape mismatch: op(a) %d×%d, op(b) %d×%d, c %s", m, k, kb, n, c.Shape()))
	}
	if m == 0 || n == 0 {
		return
	}
	if alpha == 0 || k == 0 {
		e.For(m, m*n, func(lo, hi int) { scaleRow(c.Data[lo*n:hi*n], beta) })
		return
	}
	if simd.Enabled() {
		gemmBlocked(e, transA, transB, alpha, a, b, beta, c, m, n, k)
		return
	}
	gemmPortable(e, transA, transB, alpha, a, b, beta, c, m, n, k)
}

// scaleRow sets x = beta·x, writing zeros when beta == 0.
func scaleRow(x []float32, beta float32) {
	switch beta {
	case 0:
		clear(x)
	case 1:
	default:
		for i := range x {
			x[i] *= beta
		}
	}
}
