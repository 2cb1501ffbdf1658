package tensor

import "github.com/pcgcn/pcgcn/internal/simd"

// The transposed-left products (a weight gradient Hᵀ·∂out: op(a) = aᵀ, a
// n×m with n the graph's nodes) read op(a)'s row tile in place as twelve
// consecutive floats per inner index, the next twelve m floats on. For m a
// multiple of 256 those lines are 1–2 KiB apart and fall on one or two L1
// sets, so no tile call keeps its 256 inner indices' lines (BENCHMARKS.md,
// session 54): each call read them again from L2, while the NN products'
// in-place rows stay in L1. gemmPanelsTransA packs the tile instead (one
// 16-float vector a step) and runs it against b's block 512 columns wide,
// packed once per block of the inner index, so a packed tile serves up to
// 16 tile calls. It runs where a product finds the Exec's Scratch free
// (gemmTransAScratch). Only where op(a)'s values are read from changes: every
// element of c gets the tiles, chains and folds of gemmPanels, in the same
// order along the inner index.
const (
	// gemmTNCols is the width of the blocks of op(b) that gemmPanelsTransA
	// packs: 512 columns, the widest hidden layer of the searches (a
	// 512 KiB buffer, held in L2). 128 columns, whose buffer Go would keep
	// on a goroutine's stack, gained a tenth of what 512 gain.
	gemmTNCols = 512
	// gemmTNMin is the fewest multiply-adds of a product that takes
	// gemmPanelsTransA, where packing each tile once a block pays.
	gemmTNMin = 1 << 25
)

// useTransAPanels reports whether a product kd of rows rows of c takes
// gemmPanelsTransA: a transposed left operand, b's blocks packed (more than
// one row panel), c at least 128 columns wide (a packed tile then serves
// four or more tile calls), a product of at least gemmTNMin multiply-adds,
// and no epilogue (whose blocks are at most gemmNB wide).
func useTransAPanels(kd *kernel, rows int) bool {
	return kd.transA && kd.epi == nil && !readBInPlace(kd.transB, rows) && rows >= 2*simd.TileRows &&
		kd.n >= 128 && kd.m*kd.n*kd.k >= gemmTNMin
}

// gemmTransAFloats is the Scratch one piece of gemmPanelsTransA needs: a
// block of op(b) and a packed tile.
const gemmTransAFloats = gemmKC*gemmTNCols + gemmKC*simd.TileCols

// gemmTransAScratch runs a product's row panels [0, panels) through
// gemmPanelsTransA, with its buffers in the Exec's Scratch (528 KiB a
// piece: more than Go keeps on a goroutine's stack, and a training step
// must not allocate), and reports whether it did. A parallel product is cut
// as gemmBlocked cuts it, into pieces of at least gemmMinPanels row panels
// and at most one a thread, each with its own part of the Scratch. Without
// a Scratch, with it in use, or for a product that useTransAPanels turns
// down, it does nothing and gemmBlocked takes gemmPanels, which gives the
// same bits.
func gemmTransAScratch(e Exec, kd *kernel, panels int) bool {
	if !useTransAPanels(kd, kd.m) {
		return false
	}
	pieces := 1
	if !e.Serial(panels, kd.m*kd.n*kd.k) {
		pieces = max(1, min(e.N(), panels/gemmMinPanels))
	}
	buf, ok := e.Scratch.Take(pieces * gemmTransAFloats)
	if !ok {
		return false
	}
	defer e.Scratch.Release()
	if pieces == 1 {
		gemmPanelsTransA(0, panels, buf[:gemmKC*gemmTNCols], buf[gemmKC*gemmTNCols:], kd)
		return true
	}
	pk := *kd
	pk.out = buf // each piece's buffers, gemmTransAFloats apiece
	e.runKernelMin(pieces, 1, pk, gemmTransAPieces)
	return true
}

// gemmTransAPieces runs pieces [lo, hi) of a parallel gemmTransAScratch:
// piece p takes the p-th of len(kd.out)/gemmTransAFloats equal shares of
// the row panels, and the p-th share of kd.out as its buffers.
func gemmTransAPieces(kd *kernel, lo, hi int) {
	pieces := len(kd.out) / gemmTransAFloats
	panels := (kd.m + simd.TileRows - 1) / simd.TileRows
	for p := lo; p < hi; p++ {
		buf := kd.out[p*gemmTransAFloats : (p+1)*gemmTransAFloats]
		gemmPanelsTransA(p*panels/pieces, (p+1)*panels/pieces, buf[:gemmKC*gemmTNCols], buf[gemmKC*gemmTNCols:], kd)
	}
}

// gemmPanelsTransA computes the rows of c in row panels [plo, phi) for a
// transposed a: for each block of gemmKC inner indices and of gemmTNCols
// columns, op(b)'s block is packed (packB), then each tile of twelve rows
// (fewer for the last) is packed p-major, 16 floats a step (packATile), and
// multiplied by the whole block in one simd.GemmRowTiles call. The rows are
// scaled by beta just before their first tile (with beta 0, the first inner
// block's tiles write onto zeros: simd.GemmRowTilesSet).
func gemmPanelsTransA(plo, phi int, bpack, apack []float32, kd *kernel) {
	const w = simd.TileCols
	m, n, k := kd.m, kd.n, kd.k
	c := kd.c.Data
	r0, r1 := plo*simd.TileRows, min(phi*simd.TileRows, m)
	for k0 := 0; k0 < k; k0 += gemmKC {
		kc := min(gemmKC, k-k0)
		for jb := 0; jb < n; jb += gemmTNCols {
			nb := min(gemmTNCols, n-jb)
			packB(bpack, kd.b, kd.transB, k0, kc, jb, nb)
			for i0 := r0; i0 < r1; i0 += 2 * simd.TileRows {
				rows := min(2*simd.TileRows, r1-i0)
				set := k0 == 0 && kd.beta == 0
				if k0 == 0 && jb == 0 && !set {
					scaleRow(c[i0*n:(i0+rows)*n], kd.beta)
				}
				packATile(apack, kd.a.Data, m, i0, rows, k0, kc)
				if set {
					simd.GemmRowTilesSet(rows, nb, kc, kd.alpha, apack, 1, w, bpack, w, kc*w, c[i0*n+jb:], n)
				} else {
					simd.GemmRowTiles(rows, nb, kc, kd.alpha, apack, 1, w, bpack, w, kc*w, c[i0*n+jb:], n)
				}
			}
		}
	}
}

// packATile copies rows [i0, i0+rows) of op(a) = aᵀ (a with m columns) at
// inner indices [k0, k0+kc) into dst p-major, 16 floats a step: dst[16p+r]
// = a[(k0+p)·m + i0 + r] for r < rows (the lanes past rows are left as
// they are; the tiles do not read them). Sixteen floats a step in one
// vector copy where the row of a has them, else one at a time.
func packATile(dst, a []float32, m, i0, rows, k0, kc int) {
	const w = simd.TileCols
	if i0+w <= m {
		simd.PackPanels16(dst, a[k0*m+i0:], m, kc, 1, kc*w)
		return
	}
	for p := range kc {
		copy(dst[p*w:p*w+rows], a[(k0+p)*m+i0:(k0+p)*m+i0+rows])
	}
}
