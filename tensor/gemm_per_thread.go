package tensor

import "github.com/pcgcn/pcgcn/internal/simd"

// GemmPerThread is Gemm with the rows of c dealt out, on the vector path,
// in one piece of row panels per goroutine instead of up to four: every
// piece packs all of op(b) (gemmBlocked), so for a product with a wide
// op(b) and few rows per piece, such as the blocks of LINKX's weight
// gradient (a 1,024×512 result over 256 inner indices, 16-panel pieces:
// eight packings of op(b) per product at two threads), the packing costs as
// much as a good part of the tiles. Every other path (nothing to add,
// split-K, short split-K, small k, a sparse left operand, no vector
// kernels) is Gemm's, and
// each element's operations depend on the shapes only, so the bits are
// Gemm's at any thread count (TestGemmPerThreadMatchesGemm). The price is
// the dynamic dealing's balance when a goroutine is slowed by another
// process.
func GemmPerThread(e Exec, transA, transB bool, alpha float32, a, b *Dense, beta float32, c *Dense) {
	kd := gemmKernel("GemmPerThread", transA, transB, alpha, a, b, beta, c)
	m, n, k := kd.m, kd.n, kd.k
	if m == 0 || n == 0 || alpha == 0 || k == 0 || !simd.Enabled() || useSplitK(e, &kd) || useSplitKShort(e, &kd) || smallK(&kd) || sparseLeft(&kd) {
		Gemm(e, transA, transB, alpha, a, b, beta, c)
		return
	}
	panels := (m + simd.TileRows - 1) / simd.TileRows
	if e.Serial(panels, m*n*k) {
		gemmPanelRange(&kd, 0, panels)
		return
	}
	t := min(e.N(), panels)
	e.runKernelMin(panels, (panels+t-1)/t, kd, gemmPanelRange)
}
