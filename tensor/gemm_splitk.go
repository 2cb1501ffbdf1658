package tensor

import "github.com/pcgcn/pcgcn/internal/simd"

// Split-inner-index products. A weight gradient Hᵀ·G over a million-node
// graph is a 64×64 result of a 1,000,000-long inner index: gemmBlocked deals
// out c's few row panels (11 of them), and every piece packs all of op(b)
// again, so b (256 MB) is read from memory once per piece — eight times on
// two threads, which made this product the slowest of a full-batch step.
// gemmSplitK instead deals out the gemmKC blocks of the inner index: each
// block's partial product, the fused multiply-add chain from zero that a
// tile forms for it, goes to a buffer of its own, and the caller folds the
// buffers into c one by one in increasing block order with
// c = fma(alpha, partial, c), exactly the fold the tiles do. Each element of
// c thus takes the same operations as in gemmBlocked and the same bits,
// whatever the thread count (partials are exact copies of the tiles' chains:
// they are written into +0 by fma(1, acc, +0), which changes only an acc of
// −0, and a chain from +0 is −0 only after underflow, the caveat gemmSparseA
// has too). a and b are each read once.

// splitKMinK is the inner length from which gemmSplitK is used (64 blocks:
// below it packing op(b) once per piece costs little), and splitKMaxMN the
// largest c it takes (its partial buffers hold splitKGroup copies of c).
const (
	splitKMinK  = 64 * gemmKC
	splitKMaxMN = 128 * 128
	splitKGroup = 32
)

// useSplitK reports whether Gemm takes gemmSplitK for kd: vector kernels,
// more than one thread, a small c and a long inner index.
func useSplitK(e Exec, kd *kernel) bool {
	return simd.Enabled() && e.N() > 1 && kd.k >= splitKMinK && kd.m*kd.n <= splitKMaxMN
}

// splitKShortMinK is the inner length from which Gemm also tries
// gemmSplitK for a c of too few row panels to share (fewer than
// gemmMinPanels: gemmBlocked would run it on one goroutine), when the
// Workers' own partial buffer is free (splitKShort). A weight gradient
// over a graph of a few thousand nodes is such a product: Actor's H̄ᵀ·∂,
// 64×64 over 7,600 nodes (30 blocks, 11 row panels), ran on one of the two
// threads while the other waited.
const splitKShortMinK = 8 * gemmKC

// useSplitKShort reports whether Gemm tries gemmSplitKShort for kd: as
// useSplitK, for an inner index of splitKShortMinK up to splitKMinK and a c
// of fewer than gemmMinPanels row panels, with Workers to share it.
func useSplitKShort(e Exec, kd *kernel) bool {
	return simd.Enabled() && e.N() > 1 && e.Workers != nil && kd.k >= splitKShortMinK && kd.k < splitKMinK &&
		kd.m*kd.n <= splitKMaxMN && (kd.m+simd.TileRows-1)/simd.TileRows < gemmMinPanels
}

// gemmSplitKShort runs gemmSplitK with the Workers' partial buffer when no
// other product holds it, and reports whether it did: it never allocates
// one (Workers.scratch would, for a busy buffer), so a training step stays
// allocation-free; when it declines, Gemm takes the row panels, which give
// the same bits.
func gemmSplitKShort(e Exec, kd kernel) bool {
	w := e.Workers
	if !w.scratchMu.TryLock() {
		return false
	}
	defer w.scratchMu.Unlock()
	n := splitKGroup * kd.m * kd.n
	if cap(w.scratchBuf) < n {
		w.scratchBuf = make([]float32, n) // the first time, as Workers.scratch
	}
	splitKInto(e, kd, w.scratchBuf[:n])
	return true
}

// gemmSplitK computes c = alpha·op(a)·op(b) + beta·c for useSplitK's
// products: groups of splitKGroup blocks have their partials computed in
// parallel (splitKBlocks), then folded into c in order on the calling
// goroutine.
func gemmSplitK(e Exec, kd kernel) {
	buf, held := e.Workers.scratch(splitKGroup * kd.m * kd.n)
	if held {
		defer e.Workers.scratchMu.Unlock()
	}
	splitKInto(e, kd, buf)
}

// splitKInto is gemmSplitK with buf (splitKGroup·m·n floats) for the
// partials.
func splitKInto(e Exec, kd kernel, buf []float32) {
	m, n, k := kd.m, kd.n, kd.k
	mn := m * n
	c := kd.c.Data[:mn]
	scaleRow(c, kd.beta)
	blocks := (k + gemmKC - 1) / gemmKC
	kd.out = buf
	col, one := [1]int32{0}, [1]float32{1}
	for g0 := 0; g0 < blocks; g0 += splitKGroup {
		nb := min(splitKGroup, blocks-g0)
		kd.k0 = g0 * gemmKC
		e.runKernel(nb, nil, kd, splitKBlocks)
		for q := range nb {
			// c = fma(alpha, fma(1, partial, +0), c): the partial itself
			simd.SpMMRow(kd.alpha, col[:], one[:], nil, buf[q*mn:(q+1)*mn], mn, c)
		}
	}
}

// splitKBlocks computes the partial products of blocks [lo, hi) of the group
// starting at inner index kd.k0, block q into kd.out[q·m·n:], with alpha 1
// into zeros and op(b)'s blocks packed on the goroutine's stack as in
// gemmPanels.
func splitKBlocks(kd *kernel, lo, hi int) {
	if readBInPlace(kd.transB, kd.m) {
		splitKBlocksInto(kd, lo, hi, nil)
		return
	}
	var pack [gemmKC * gemmNB]float32
	splitKBlocksInto(kd, lo, hi, pack[:])
}

// splitKBlocksInto is splitKBlocks packing op(b)'s blocks into pack, or with
// pack nil reading them in place (see readBInPlace).
func splitKBlocksInto(kd *kernel, lo, hi int, pack []float32) {
	m, n, k := kd.m, kd.n, kd.k
	rsa, csa := k, 1
	if kd.transA {
		rsa, csa = 1, m
	}
	inPlace := pack == nil
	for q := lo; q < hi; q++ {
		k0 := kd.k0 + q*gemmKC
		kc := min(gemmKC, k-k0)
		part := kd.out[q*m*n : (q+1)*m*n]
		clear(part)
		for jb := 0; jb < n; jb += gemmNB {
			nb := min(gemmNB, n-jb)
			bp, ldb := pack, simd.TileCols
			if inPlace {
				bp, ldb = kd.b.Data[k0*n+jb:], n
			} else {
				packB(pack, kd.b, kd.transB, k0, kc, jb, nb)
			}
			simd.GemmRowTiles(m, nb, kc, 1, kd.a.Data[k0*csa:], rsa, csa,
				bp, ldb, panelOffset(inPlace, 1, kc), part[jb:], n)
		}
	}
}
