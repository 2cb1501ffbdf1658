package tensor

import "github.com/pcgcn/pcgcn/internal/simd"

// Cache blocking of gemmBlocked, chosen by measurement on the project's
// machine (BENCHMARKS.md). A gemmKC×gemmNB block of op(b) is packed into
// 16-column panels on the goroutine's stack (64 KiB, held in L2); the
// 6×gemmKC slice of op(a) that one row tile reads stays in L1 while it meets
// every panel. Packing matters: read in place, the rows of a 16-column panel
// of b lie n floats apart and, for n = 64 or 512, map onto a few L1 sets.
const (
	gemmKC = 256
	gemmNB = 64
)

// GemmBlockK is the number of inner indices whose products every path of
// Gemm sums in one chain before folding it into c (c = alpha·chain + c, the
// blocks in increasing order, aligned at multiples of GemmBlockK): a caller
// that leaves out zero terms of the inner index (autograd's weight gradient
// over the non-zero rows of ∂out) keeps the bits only if it keeps these
// blocks.
const GemmBlockK = gemmKC

// gemmBlocked computes c = alpha·op(a)·op(b) + beta·c with the vector tiles
// of package simd. The rows of c are dealt out in pieces of whole
// simd.TileRows-row panels (Exec.forDynamic); the goroutine that takes a
// piece scales its rows by beta (each row panel just before its first
// tile), then for each block of gemmKC inner indices adds alpha times that block's partial product, formed by one fused
// multiply-add chain per element: the order depends on k only, never on how
// rows are split among goroutines. op(a) is read in place through its
// strides; every piece packs the blocks of op(b) it needs itself, which costs
// k·n copies per piece against m·n·k/pieces multiply-adds.
func gemmBlocked(e Exec, kd kernel) {
	m, n, k := kd.m, kd.n, kd.k
	panels := (m + simd.TileRows - 1) / simd.TileRows
	if gemmTransAScratch(e, &kd, panels) {
		return
	}
	if e.Serial(panels, m*n*k) {
		gemmPanelRange(&kd, 0, panels)
		return
	}
	e.runKernelMin(panels, gemmMinPanels, kd, gemmPanelRange)
}

// gemmMinPanels is the fewest row panels (of simd.TileRows rows) in a piece
// of gemmBlocked when there are enough for one piece per goroutine: each
// piece packs all of op(b), k·n copies (strided ones for a transposed b),
// against rows·k·n multiply-adds, and below about a hundred rows the packing
// cost as much as the tiles (a 183-row Texas product cut into eight pieces
// spent 0.8 s in packB for 1.0 s in the 6×16 tile).
const gemmMinPanels = 16

// gemmPanelRange computes the row panels [plo, phi) of gemmBlocked with a
// packing buffer on the goroutine's stack.
func gemmPanelRange(kd *kernel, plo, phi int) {
	nbPadded := (min(kd.n, gemmNB) + simd.TileCols - 1) / simd.TileCols * simd.TileCols
	// Go zeroes the buffer on every call, so small products get a small
	// one, and those that read op(b) in place none.
	if readBInPlace(kd.transB, min(phi*simd.TileRows, kd.m)-plo*simd.TileRows) {
		gemmPanels(plo, phi, nil, kd.transA, kd.transB, kd.alpha, kd.a, kd.b, kd.beta, kd.c, kd.m, kd.n, kd.k, kd.epi)
	} else if min(kd.k, gemmKC)*nbPadded <= gemmSmallPack {
		var pack [gemmSmallPack]float32
		gemmPanels(plo, phi, pack[:], kd.transA, kd.transB, kd.alpha, kd.a, kd.b, kd.beta, kd.c, kd.m, kd.n, kd.k, kd.epi)
	} else {
		var pack [gemmKC * gemmNB]float32
		gemmPanels(plo, phi, pack[:], kd.transA, kd.transB, kd.alpha, kd.a, kd.b, kd.beta, kd.c, kd.m, kd.n, kd.k, kd.epi)
	}
}

// gemmSmallPack is the packing buffer of products whose op(b) blocks, padded
// to whole 16-column panels, need no more (k, n ≤ 64 in the hidden layers):
// 16 KiB instead of 64 KiB.
const gemmSmallPack = 64 * 64

// gemmPanels computes the rows of c in panels [plo, phi) for gemmBlocked,
// packing op(b) into pack, or with pack nil reading it in place (see
// readBInPlace; op(b) must then be b).
//
// With epi, each block of c (a group of rows, one block of columns) gets
// epi.F right after the tiles of the last inner block, while its rows are
// in cache.
func gemmPanels(plo, phi int, pack []float32, transA, transB bool, alpha float32, a, b *Dense, beta float32, c *Dense, m, n, k int, epi *Epilogue) {
	rsa, csa := k, 1
	if transA {
		rsa, csa = 1, m
	}
	r0, r1 := plo*simd.TileRows, min(phi*simd.TileRows, m)
	inPlace := pack == nil
	for k0 := 0; k0 < k; k0 += gemmKC {
		kc := min(gemmKC, k-k0)
		for jb := 0; jb < n; jb += gemmNB {
			nb := min(gemmNB, n-jb)
			bp, ldb := pack, simd.TileCols
			if inPlace {
				bp, ldb = b.Data[k0*n+jb:], n
			} else {
				packB(pack, b, transB, k0, kc, jb, nb)
			}
			for i0 := r0; i0 < r1; i0 += gemmScaleRows {
				i1 := min(i0+gemmScaleRows, r1)
				set := k0 == 0 && beta == 0
				if k0 == 0 && jb == 0 && !set {
					// scaled just before its tiles, the rows are still
					// in L1 when the tiles read them (scaling the whole
					// piece first wrote a million-row c out to memory
					// and read it back)
					scaleRow(c.Data[i0*n:i1*n], beta)
				}
				// with beta 0 the first inner block's tiles write their
				// blocks as onto zeros, without a pass that zeroes them
				// (direct calls: through a func value the stack's
				// packing buffer would escape)
				if set {
					simd.GemmRowTilesSet(i1-i0, nb, kc, alpha, a.Data[i0*rsa+k0*csa:], rsa, csa,
						bp, ldb, panelOffset(inPlace, 1, kc), c.Data[i0*n+jb:], n)
				} else {
					simd.GemmRowTiles(i1-i0, nb, kc, alpha, a.Data[i0*rsa+k0*csa:], rsa, csa,
						bp, ldb, panelOffset(inPlace, 1, kc), c.Data[i0*n+jb:], n)
				}
				if epi != nil && k0+kc == k {
					epi.F(epi.Arg, i0, i1, jb, jb+nb)
				}
			}
		}
	}
}

// gemmScaleRows is how many rows of c gemmPanels scales by beta before it
// runs their tiles in one simd.GemmRowTiles call: eight row panels (12
// KiB of a 64-wide c, still in L1 when the tiles read it), a multiple of
// the 12-row tiles of products of at most 8 columns.
const gemmScaleRows = 8 * simd.TileRows

// readBInPlace reports whether gemmPanels and splitKBlocks read op(b)'s
// blocks where they are instead of packing them: when op(b) is b itself and
// one row panel (at most simd.TileRows rows of c) meets each block, packing
// is a copy of the whole operand that nothing reads twice. The weight
// gradients of a 5-class layer over Actor's 7,600 nodes (Bᵀ·∂(BPW),
// ∂Sᵀ·H̄: 5×64 results) packed all of their 7,600×64 b for one 5-row tile;
// b's rows in place are 64 floats apart, a line a row for each 16-column
// panel, which the tiles read once and in order. The tiles, their inputs
// and their order are the same: only where they read b from changes.
func readBInPlace(transB bool, rows int) bool {
	return !transB && rows <= simd.TileRows
}

// panelOffset is where the q-th 16-column panel of a block of op(b) starts:
// in packB's buffer, kc·simd.TileCols floats each; in place, 16 columns on.
func panelOffset(inPlace bool, q, kc int) int {
	if inPlace {
		return q * simd.TileCols
	}
	return q * kc * simd.TileCols
}

// packB copies the kc×nb block of op(b) at (k0, jb) into dst as consecutive
// kc×simd.TileCols panels (row stride simd.TileCols; lanes past nb in the
// last panel are left as they are: the tiles mask them).
func packB(dst []float32, b *Dense, transB bool, k0, kc, jb, nb int) {
	const w = simd.TileCols
	if transB {
		ld := b.Cols
		j8 := 0
		if simd.Enabled() && w == 16 && kc >= 8 {
			// eight rows of b (eight columns of a panel) at a time, 8×8
			// blocks transposed in registers: the loop below stores one
			// float at a time, 64 bytes apart
			n8 := kc / 8
			for ; j8+8 <= nb; j8 += 8 {
				simd.Transpose8(n8, b.Data[(jb+j8)*ld+k0:], ld, dst[(j8/w)*kc*w+j8%w:], w)
				panel := dst[(j8/w)*kc*w+j8%w:]
				for j := j8; j < j8+8; j++ { // the last kc mod 8 columns of b
					src := b.Data[(jb+j)*ld+k0 : (jb+j)*ld+k0+kc]
					for p := 8 * n8; p < kc; p++ {
						panel[p*w+j-j8] = src[p]
					}
				}
			}
		}
		for j := j8; j < nb; j++ {
			src := b.Data[(jb+j)*ld+k0 : (jb+j)*ld+k0+kc]
			panel := dst[(j/w)*kc*w+j%w:]
			for p, v := range src {
				panel[p*w] = v
			}
		}
		return
	}
	ld := b.Cols
	q0 := 0
	if simd.Enabled() && w == 16 && nb >= w {
		// the whole panels in one call (copy called memmove for each)
		q0 = nb / w
		simd.PackPanels16(dst, b.Data[k0*ld+jb:], ld, kc, q0, kc*w)
		if q0*w == nb {
			return
		}
	}
	for p := 0; p < kc; p++ {
		src := b.Data[(k0+p)*ld+jb : (k0+p)*ld+jb+nb]
		for q := q0; q*w < nb; q++ {
			copy(dst[q*kc*w+p*w:q*kc*w+p*w+w], src[q*w:min(q*w+w, nb)])
		}
	}
}
