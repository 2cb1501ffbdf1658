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
