package tensor

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// gemmKernel returns the kernel of c = alpha·op(a)·op(b) + beta·c, and
// panics, naming fn and both shapes, when they do not fit.
func gemmKernel(fn string, transA, transB bool, alpha float32, a, b *Dense, beta float32, c *Dense) kernel {
	m, k := a.Rows, a.Cols
	if transA {
		m, k = k, m
	}
	kb, n := b.Rows, b.Cols
	if transB {
		kb, n = n, kb
	}
	if k != kb || c.Rows != m || c.Cols != n {
		panic(fmt.Sprintf("tensor: %s shape mismatch: op(a) %d×%d, op(b) %d×%d, c %s", fn, m, k, kb, n, c.Shape()))
	}
	return kernel{transA: transA, transB: transB, alpha: alpha, a: a, b: b, beta: beta, c: c, m: m, n: n, k: k}
}

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
	gemm(e, gemmKernel("Gemm", transA, transB, alpha, a, b, beta, c))
}

// gemm runs kd through the path its shape and the machine call for, and
// reports whether it ran kd.epi on each block of c as the block was
// finished (only the cache-blocked tiles do).
func gemm(e Exec, kd kernel) (epilogueDone bool) {
	m, n, k := kd.m, kd.n, kd.k
	if m == 0 || n == 0 {
		return true
	}
	if kd.alpha == 0 || k == 0 {
		if e.Serial(m, m*n) {
			scaleRows(&kd, 0, m)
			return false
		}
		e.forChunks(m, job{kb: scaleRows}, kd)
		return false
	}
	if useSplitK(e, &kd) {
		gemmSplitK(e, kd)
		return false
	}
	if useSplitKShort(e, &kd) && gemmSplitKShort(e, kd) {
		return false
	}
	if smallK(&kd) {
		gemmSmallK(e, kd)
		return false
	}
	if sparseLeft(&kd) {
		gemmSparseA(e, kd)
		return false
	}
	if simd.Enabled() {
		gemmBlocked(e, kd)
		return kd.epi != nil
	}
	if e.Serial(m, m*n*k) {
		gemmPortableRows(&kd, 0, m)
		return false
	}
	e.runKernel(m, nil, kd, gemmPortableRows)
	return false
}

// scaleRows scales rows [lo, hi) of c by beta (Gemm with nothing to add).
func scaleRows(kd *kernel, lo, hi int) { scaleRow(kd.c.Data[lo*kd.n:hi*kd.n], kd.beta) }

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
