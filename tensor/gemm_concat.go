package tensor

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// GemmConcatTransA holds the operands of [GemmConcatTransA]: c = Alpha·
// [A₀ A₁ …]ᵀ·B + Beta·C, the weight gradient of a product whose left operand
// is a concatenation of columns [A₀ A₁ …] (GCNII*'s [ÂH ‖ H⁽⁰⁾]·W). The
// caller keeps it (on the heap, reused), so that a call allocates nothing.
type GemmConcatTransA struct {
	Alpha, Beta float32
	A           []*Dense // the sources, each with B's rows
	B, C        *Dense   // C has Σ A[k].Cols rows and B.Cols columns
}

// Run computes p.C = p.Alpha·[A₀ A₁ …]ᵀ·p.B + p.Beta·p.C: rows [o_k, o_k +
// A[k].Cols) of C (o_k the columns of the sources before A[k]) get the bits
// of Gemm(e, true, false, Alpha, A[k], B, Beta, those rows), which it calls
// whenever Gemm would take another path than its vector tiles for a source
// (split inner index, sparse left operand, portable loops, nothing to
// multiply). On the tiles' path it packs each block of B once for every
// source instead of once per source and per piece of rows, and deals out
// C's 16-column panels: each goroutine packs the columns of B it needs and
// runs every row tile of every source on them, with the tile calls (their
// shapes, operands and order along the inner index) of gemmPanels, so each
// element of C gets the same chain of operations at any thread count.
func (p *GemmConcatTransA) Run(e Exec) {
	k, n := p.B.Rows, p.B.Cols
	m := 0
	for _, a := range p.A {
		if a.Rows != k {
			panic(fmt.Sprintf("tensor: GemmConcatTransA: a source %s next to b %s", a.Shape(), p.B.Shape()))
		}
		m += a.Cols
	}
	if p.C.Rows != m || p.C.Cols != n {
		panic(fmt.Sprintf("tensor: GemmConcatTransA: c %s for %d×%d", p.C.Shape(), m, n))
	}
	if !p.tiles(e) {
		off := 0
		for _, a := range p.A {
			ck := Dense{Rows: a.Cols, Cols: n, Data: p.C.Data[off*n : (off+a.Cols)*n]}
			Gemm(e, true, false, p.Alpha, a, p.B, p.Beta, &ck)
			off += a.Cols
		}
		return
	}
	panels := (n + simd.TileCols - 1) / simd.TileCols
	e.ForArg(panels, m*n*k, p, gemmConcatCols)
}

// tiles reports whether Gemm would compute every source's product with
// gemmBlocked (the same tests in the same order as Gemm; a source without
// columns is skipped by Gemm and here).
func (p *GemmConcatTransA) tiles(e Exec) bool {
	k, n := p.B.Rows, p.B.Cols
	if n == 0 || p.Alpha == 0 || k == 0 || !simd.Enabled() {
		return false
	}
	for _, a := range p.A {
		if a.Cols == 0 {
			continue
		}
		kd := kernel{transA: true, alpha: p.Alpha, a: a, b: p.B, beta: p.Beta, m: a.Cols, n: n, k: k}
		if useSplitK(e, &kd) || smallK(&kd) || sparseLeft(&kd) {
			return false
		}
	}
	return true
}

// gemmConcatCols computes C's 16-column panels [lo, hi) of a
// GemmConcatTransA: for each block of gemmKC inner indices, each panel of B
// packed on the stack, then every source's row tiles on it, C's rows scaled
// by Beta just before their first tile (as gemmPanels does).
func gemmConcatCols(arg any, lo, hi int) {
	p := arg.(*GemmConcatTransA)
	const w = simd.TileCols
	var pack [gemmKC * w]float32
	k, n := p.B.Rows, p.B.Cols
	for k0 := 0; k0 < k; k0 += gemmKC {
		kc := min(gemmKC, k-k0)
		for q := lo; q < hi; q++ {
			j0 := q * w
			cols := min(w, n-j0)
			packB(pack[:], p.B, false, k0, kc, j0, cols)
			off := 0
			for _, a := range p.A {
				m := a.Cols
				for i0 := 0; i0 < m; i0 += simd.TileRows {
					rows := min(simd.TileRows, m-i0)
					c := p.C.Data[(off+i0)*n+j0:]
					if k0 == 0 {
						for r := range rows {
							scaleRow(c[r*n:r*n+cols], p.Beta)
						}
					}
					simd.GemmTile(rows, cols, kc, p.Alpha, a.Data[i0+k0*m:], 1, m, pack[:], w, c, n)
				}
				off += m
			}
		}
	}
}

// GemmConcatA holds the operands of [GemmConcatA.Run]: C = Alpha·[A₀ A₁]·B +
// Beta·C, a product whose left operand is two matrices side by side (GCNII*'s
// [ÂH ‖ H⁽⁰⁾]·W), without the concatenation. The caller keeps it (on the
// heap, reused), so that a call allocates nothing.
type GemmConcatA struct {
	Alpha, Beta float32
	A0, A1      *Dense // the two sources, with C's rows
	B, C        *Dense // B has A0.Cols+A1.Cols rows
}

// Run computes p.C = p.Alpha·[A0 A1]·p.B + p.Beta·p.C with the bits of Gemm
// on the concatenation, and reports true, when Gemm would take its vector
// tiles for that product and the shapes suit the two-source tile
// (simd.GemmTile2): the sources equally wide, the inner length one block of
// gemmKC at most, C's width a multiple of 16. Otherwise it leaves C as it is
// and reports false, and the caller concatenates and calls Gemm. Gemm's
// choice of its sparse-left path is made here the same way, on the non-zeros
// of both sources together (every element counted: concatenations larger
// than sparseScanAll, which Gemm samples, report false).
func (p *GemmConcatA) Run(e Exec) bool {
	m, k0, k := p.A0.Rows, p.A0.Cols, p.A0.Cols+p.A1.Cols
	n := p.B.Cols
	if p.A1.Rows != m || p.B.Rows != k || p.C.Rows != m || p.C.Cols != n {
		panic(fmt.Sprintf("tensor: GemmConcatA: [%s %s]·%s into %s", p.A0.Shape(), p.A1.Shape(), p.B.Shape(), p.C.Shape()))
	}
	if !simd.Enabled() || p.Alpha == 0 || k0 == 0 || p.A1.Cols != k0 || k > gemmKC ||
		n%simd.TileCols != 0 || m*k > sparseScanAll {
		return false
	}
	if m == 0 || n == 0 {
		return true // Gemm does nothing either
	}
	kd := kernel{alpha: p.Alpha, beta: p.Beta, m: m, n: n, k: k}
	if useSplitK(e, &kd) || smallK(&kd) {
		return false
	}
	if n >= gemmSparseMinCols {
		// sparseLeft's count over the concatenation, every element (in
		// another order, which the total does not depend on), stopped as
		// soon as it passes the limit
		limit := int(gemmSparseMaxDensity * float64(m*k))
		nz := 0
	count:
		for _, a := range [2]*Dense{p.A0, p.A1} {
			for lo := 0; lo < len(a.Data); lo += 1024 {
				if nz += simd.CountNonZero(a.Data[lo:min(lo+1024, len(a.Data))]); nz > limit {
					break count
				}
			}
		}
		if nz <= limit {
			return false
		}
	}
	// gemmBlocked's dealing of row panels, with A1 carried in kd.out
	kd.a, kd.b, kd.c, kd.out = p.A0, p.B, p.C, p.A1.Data
	panels := (m + simd.TileRows - 1) / simd.TileRows
	if e.Serial(panels, m*n*k) {
		gemmConcatARows(&kd, 0, panels)
		return true
	}
	e.runKernelMin(panels, gemmMinPanels, kd, gemmConcatARows)
	return true
}

// gemmConcatARows computes the row panels [lo, hi) of a GemmConcatA as
// gemmPanels computes them for the concatenation (one block of the inner
// index, B packed by gemmNB columns, each panel's rows scaled by Beta just
// before its first tile), with simd.GemmTile2 reading the two sources in
// place (A0 in kd.a, A1's elements in kd.out).
func gemmConcatARows(kd *kernel, lo, hi int) {
	const w = simd.TileCols
	var pack [gemmKC * gemmNB]float32
	m, n, k := kd.m, kd.n, kd.k
	kc := k / 2
	r0, r1 := lo*simd.TileRows, min(hi*simd.TileRows, m)
	for jb := 0; jb < n; jb += gemmNB {
		nb := min(gemmNB, n-jb)
		packB(pack[:], kd.b, false, 0, k, jb, nb)
		for i0 := r0; i0 < r1; i0 += simd.TileRows {
			rows := min(simd.TileRows, r1-i0)
			if jb == 0 {
				scaleRow(kd.c.Data[i0*n:(i0+rows)*n], kd.beta)
			}
			a0, a1 := kd.a.Data[i0*kc:], kd.out[i0*kc:]
			for q := 0; q*w < nb; q++ {
				simd.GemmTile2(rows, kc, kc, kd.alpha, a0, a1, kc, 1, pack[q*k*w:], w, kd.c.Data[i0*n+jb+q*w:], n)
			}
		}
	}
}

// GemmConcatNT holds the operands of [GemmConcatNT.Run]: the gradients of
// the inputs of [X₀ X₁]·W, G·W_kᵀ for each k, W_k being the rows of W that
// multiply X_k (as many as Dst[k] has columns, in order). The caller keeps
// it (on the heap, reused), so that a call allocates nothing.
type GemmConcatNT struct {
	G, W *Dense
	// Dst[k] receives G·W_kᵀ: written as Gemm(e, false, true, 1, G, W_k,
	// 0, Dst[k]) writes it when Add[k] is false, else computed so into +0
	// and added, Dst[k] = Dst[k] + product as simd.AddScaled(d, product,
	// d, 1, 1) adds; a nil Dst[k] (an input without gradient) is skipped.
	// Two inputs at most.
	Dst [2]*Dense
	Add [2]bool
}

// Run computes every Dst[k] in one pass over G's row panels, each piece
// packing each W_kᵀ once and adding a product through a tile-sized buffer
// on its stack instead of an n-row scratch matrix, with the bits of one
// Gemm per input (and the addition), and reports true; when the shapes are
// not those it handles (no vector kernels, an inner length past one block
// of gemmKC, an input wider than gemmNB columns) it does nothing and
// reports false.
func (p *GemmConcatNT) Run(e Exec) bool {
	rows, k := p.G.Rows, p.G.Cols
	if p.W.Cols != k {
		panic(fmt.Sprintf("tensor: GemmConcatNT: G %s against W %s", p.G.Shape(), p.W.Shape()))
	}
	if !simd.Enabled() || k == 0 || k > gemmKC {
		return false
	}
	width := 0
	for q, d := range p.Dst {
		if d == nil {
			continue
		}
		if d.Rows != rows {
			panic(fmt.Sprintf("tensor: GemmConcatNT: gradient %d is %s for %d rows", q, d.Shape(), rows))
		}
		if d.Cols > gemmNB {
			return false
		}
		width += d.Cols
	}
	if (p.Dst[0] != nil && p.Dst[1] != nil && width != p.W.Rows) || width > p.W.Rows {
		panic(fmt.Sprintf("tensor: GemmConcatNT: gradients %d columns wide for W %s", width, p.W.Shape()))
	}
	if rows == 0 || width == 0 {
		return true
	}
	panels := (rows + simd.TileRows - 1) / simd.TileRows
	if e.Serial(panels, rows*k*width) {
		gemmConcatNTRows(p, 0, panels)
		return true
	}
	e.runPiecesMin(panels, gemmMinPanels, nil, job{afn: gemmConcatNTRows, arg: p}, kernel{})
	return true
}

// gemmConcatNTRows computes the row panels [lo, hi) of a GemmConcatNT:
// for each input, W_kᵀ packed (gemmPanels' packB of a transposed b), then
// each panel's tiles as gemmPanels runs them for Gemm(false, true, 1, G,
// W_k, 0, ·): the rows cleared (beta 0) just before their tiles, into
// Dst[k] itself or into a buffer that is then added to Dst[k] row by row.
func gemmConcatNTRows(arg any, lo, hi int) {
	p := arg.(*GemmConcatNT)
	const w = simd.TileCols
	var pack [gemmKC * gemmNB]float32
	var tmp [simd.TileRows * gemmNB]float32
	rows, k := p.G.Rows, p.G.Cols
	r0, r1 := lo*simd.TileRows, min(hi*simd.TileRows, rows)
	from := 0
	for q, d := range p.Dst {
		if d == nil {
			if q == 0 { // the second input's rows of W are the last ones
				from = p.W.Rows - p.dstCols(1)
			}
			continue
		}
		c := d.Cols
		if c == 0 {
			continue
		}
		wk := Dense{Rows: c, Cols: k, Data: p.W.Data[from*k : (from+c)*k]}
		packB(pack[:], &wk, true, 0, k, 0, c)
		for i0 := r0; i0 < r1; i0 += simd.TileRows {
			nr := min(simd.TileRows, r1-i0)
			out, ld := d.Data[i0*c:(i0+nr)*c], c
			if p.Add[q] {
				out = tmp[:nr*c]
			}
			clear(out)
			for j := 0; j*w < c; j++ {
				simd.GemmTile(nr, min(w, c-j*w), k, 1, p.G.Data[i0*k:], k, 1, pack[j*k*w:], w, out[j*w:], ld)
			}
			if p.Add[q] {
				dd := d.Data[i0*c : (i0+nr)*c]
				simd.AddScaled(dd, out, dd, 1, 1)
			}
		}
		from += c
	}
}

// dstCols returns Dst[q]'s width, 0 for a nil one.
func (p *GemmConcatNT) dstCols(q int) int {
	if p.Dst[q] == nil {
		return 0
	}
	return p.Dst[q].Cols
}
