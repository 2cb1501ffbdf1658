package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// SpMMEdgesHeads is multi-head SpMMEdges: with h = alpha.Cols() heads and
// z = [Z_0 … Z_{h−1}] (n×h·ch, head k in columns k·ch…(k+1)·ch), it returns
// [A_0·Z_0 … A_{h−1}·Z_{h−1}] where A_k has the pattern of pattern and the
// values alpha[:,k] — a multi-head attention layer's concatenated output in
// one operation, without slicing α and Z per head and concatenating the
// results. Every element is computed as SpMMEdges computes it on the sliced
// operands (the same sums in the same order), so the result is
// ConcatCols(SpMMEdges(pattern, α_k, Z_k)…) to the bit, gradients included.
//
// Backward: ∂alpha[e,k] += ⟨∂out[i, block k], Z_k[j,:]⟩ for entry e = (i, j);
// ∂Z_k += A_kᵀ·∂out[:, block k] (through the pattern's column index).
func (t *Tape) SpMMEdgesHeads(pattern *tensor.CSR, alpha, z *Var) *Var {
	h := alpha.Cols()
	if alpha.Rows() != pattern.NNZ() || h < 1 || z.Cols()%h != 0 || pattern.Cols != z.Rows() {
		panic(fmt.Sprintf("autograd: SpMMEdgesHeads pattern %s, alpha %s, z %s", pattern.Shape(), alpha.label(), z.label()))
	}
	o := t.op(t.Alloc(pattern.Rows, z.Cols()), alpha, z)
	o.csr = pattern
	o.hp = t.headPerms(pattern, h)
	if !headPanelsPay(pattern, z.Value, h) || !spmmHeadsPanels(t.Exec, o) {
		t.Exec.ForBalancedArg(pattern.RowPtr, z.Cols(), o, spmmHeadsRows)
	}
	return t.done(o, spmmHeadsBack)
}

// headPanelsPay reports whether the forward product runs head by head over
// packed copies of Z's head blocks (spmmHeadsPanels): heads of at least 16
// columns (the 8-column heads have their own all-heads kernel), Z of at
// least 1 MiB and each row of Z read at least 16 times, as the panelled
// SpMM of package tensor (spmm_panels.go). Each head's block is the panel:
// read in place, its rows lie a whole row of Z apart and fall on few L2
// sets.
func headPanelsPay(p *tensor.CSR, z *tensor.Dense, h int) bool {
	ch := z.Cols / h
	return simd.Enabled() && ch >= 16 && z.Rows > 0 && z.Rows*z.Cols*4 >= 1<<20 && p.NNZ() >= 16*z.Rows
}

// headPanel is the operand of headPanelRows and spmmHeadBackAlphaPanelRows:
// the op, the head, the panel's place and width, its packed block of Z (or
// of ∂out), the attention values of every head, head-major (head k's nnz
// values contiguous, in the order the kernel walks them), and for
// headPanelRows the pattern's walk (row pointer and indices, the CSR's or
// the column index's) and the output.
type headPanel struct {
	o        *Var
	k        int // the head
	c0, w    int // the panel's first column within the head, and its width
	panel    []float32
	vals     []float32
	ptr, idx []int32
	c        []float32
	set      bool
}

// headPanelCols is the widest panel a head is cut into: a head of more
// columns is packed and computed 64 columns at a time, as package tensor's
// panelled SpMM does (spmm_panels.go), since a wider panel no longer stays
// in L2.
const headPanelCols = 64

// headPanels calls f(c0, w) for the panels, at most headPanelCols wide,
// that a head of ch columns is cut into.
func headPanels(ch int, f func(c0, w int)) {
	for c0 := 0; c0 < ch; c0 += headPanelCols {
		f(c0, min(headPanelCols, ch-c0))
	}
}

// spmmHeadsPanels computes the forward product head by head. First the
// attention values are copied head-major, in CSR order, so that a head's
// pass reads its values contiguously and not with a stride of h floats
// (each pass would otherwise fetch all heads' values); then head k's block
// of Z is packed into the Exec's Scratch, at most headPanelCols columns at
// a time, and every row's head-k block is computed from it with
// simd.SpMMRows (each element SpMMRow's chain over the row's entries in
// order, as spmmHeadsRowsEach computes it: the same bits). It reports
// false, computing nothing, when the Scratch is absent or in use.
func spmmHeadsPanels(e tensor.Exec, o *Var) bool {
	return headPanelProduct(e, o, o.in[1].Value, nil, o.csr.RowPtr, o.csr.ColIdx, o.Value.Data, true)
}

// headPanelProduct computes c's head blocks, head by head and panel by
// panel, as the sum over the pattern's walk (ptr, idx: the CSR's rows, or
// the column index's columns with perm its positions in CSR order) of the
// attention values times b's packed rows; set writes c's blocks, otherwise
// adds to them. It reports false when the Scratch is absent or in use.
func headPanelProduct(e tensor.Exec, o *Var, b *tensor.Dense, perm, ptr, idx []int32, c []float32, set bool) bool {
	alpha := o.in[0].Value
	h := len(o.hp.row)
	width := b.Cols
	ch := width / h
	nnz := alpha.Rows
	buf, ok := e.Scratch.Take(nnz*h + b.Rows*min(ch, headPanelCols))
	if !ok {
		return false
	}
	defer e.Scratch.Release()
	vals, panel := buf[:nnz*h], buf[nnz*h:]
	headMajor(h, nnz, perm, alpha.Data, vals)
	hp := &headPanel{o: o, panel: panel, vals: vals, ptr: ptr, idx: idx, c: c, set: set}
	for k := range h {
		headPanels(ch, func(c0, w int) {
			from := k*ch + c0
			for j := range b.Rows {
				copy(panel[j*w:(j+1)*w], b.Data[j*width+from:j*width+from+w])
			}
			hp.k, hp.c0, hp.w = k, c0, w
			e.ForBalancedArg(ptr, w, hp, headPanelRows)
		})
	}
	return true
}

// headMajor copies the nnz×h row-major src into dst head-major: dst[k·nnz
// + q] = src[p·h + k] for entry p = q, or perm[q] when perm is not nil.
// With 4 or 8 heads one loop step copies an entry's heads into as many head
// slices, each bounds check made once outside the loop: the general loop's
// slice per entry and index arithmetic per element cost more than the
// copying (about 5% of a 4-head GAT epoch on Tolokers, in this loop alone).
func headMajor(h, nnz int, perm []int32, src, dst []float32) {
	switch h {
	case 4:
		d0, d1, d2, d3 := dst[:nnz], dst[nnz:2*nnz], dst[2*nnz:3*nnz], dst[3*nnz:4*nnz]
		for q := range d0 {
			p := q
			if perm != nil {
				p = int(perm[q])
			}
			a := src[4*p : 4*p+4]
			d0[q], d1[q], d2[q], d3[q] = a[0], a[1], a[2], a[3]
		}
	case 8:
		var d [8][]float32
		for k := range d {
			d[k] = dst[k*nnz : (k+1)*nnz]
		}
		for q := range d[0] {
			p := q
			if perm != nil {
				p = int(perm[q])
			}
			a := src[8*p : 8*p+8]
			d[0][q], d[1][q], d[2][q], d[3][q] = a[0], a[1], a[2], a[3]
			d[4][q], d[5][q], d[6][q], d[7][q] = a[4], a[5], a[6], a[7]
		}
	default:
		for q := range nnz {
			p := q
			if perm != nil {
				p = int(perm[q])
			}
			for k, v := range src[p*h : (p+1)*h] {
				dst[k*nnz+q] = v
			}
		}
	}
}

// headPanelRows computes rows [lo, hi) of the walk for one panel of one
// head from its packed block.
func headPanelRows(arg any, lo, hi int) {
	hp := arg.(*headPanel)
	width := hp.o.Value.Cols
	ch := width / len(hp.o.hp.row)
	nnz := len(hp.vals) / len(hp.o.hp.row)
	simd.SpMMRows(1, hp.ptr, hp.idx, hp.vals[hp.k*nnz:(hp.k+1)*nnz], nil, hp.panel, hp.w,
		hp.c[hp.k*ch+hp.c0:], width, hp.w, lo, hi, hp.set)
}

// headPerm holds, for a pattern and a head count h, the positions of head
// k's values in a row-major nnz×h matrix: row[k][e] = e·h+k in CSR order, and
// col[k][q] = perm[q]·h+k in the column index's order. The vector kernels
// read strided values through them.
type headPerm struct {
	row, col [][]int32
}

type headKey struct {
	p patternKey
	h int
}

// headPerms returns the head permutations of p for h heads, cached on the
// tape like its column index.
func (t *Tape) headPerms(p *tensor.CSR, h int) *headPerm {
	ci := t.columns(p)
	key := headKey{p: keyOf(p), h: h}
	if hp, ok := t.heads[key]; ok {
		return hp
	}
	nnz := p.NNZ()
	hp := &headPerm{row: make([][]int32, h), col: make([][]int32, h)}
	for k := range h {
		r, c := make([]int32, nnz), make([]int32, nnz)
		for e := range nnz {
			r[e] = int32(e*h + k)
			c[e] = ci.perm[e]*int32(h) + int32(k)
		}
		hp.row[k], hp.col[k] = r, c
	}
	if t.heads == nil || len(t.heads) >= maxCachedPatterns {
		t.heads = map[headKey]*headPerm{}
	}
	t.heads[key] = hp
	return hp
}

// spmmHeadsRows computes rows [lo, hi) of the output: with heads of 8
// columns and the vector kernels, all heads of a row at once
// (spmmHeadsRowsAll), otherwise head by head (spmmHeadsRowsEach); both give
// the same bits.
func spmmHeadsRows(arg any, lo, hi int) {
	o := arg.(*Var)
	if simd.Enabled() && o.Value.Cols == 8*len(o.hp.row) {
		spmmHeadsRowsAll(o, lo, hi)
		return
	}
	spmmHeadsRowsEach(o, lo, hi)
}

// spmmHeadsRowsAll computes rows [lo, hi) of the output for heads of 8
// columns with one simd.SpMMHeadsRow call a row: each head's chains are
// SpMMRow's, so the bits are spmmHeadsRowsEach's.
func spmmHeadsRowsAll(o *Var, lo, hi int) {
	rp, colIdx, h := o.csr.RowPtr, o.csr.ColIdx, len(o.hp.row)
	width := o.Value.Cols
	ad, zd, od := o.in[0].Value.Data, o.in[1].Value.Data, o.Value.Data
	for i := lo; i < hi; i++ {
		s, e := rp[i], rp[i+1]
		c := od[i*width : (i+1)*width]
		clear(c)
		simd.SpMMHeadsRow(1, colIdx[s:e], ad[int(s)*h:], h, nil, zd, width, c)
	}
}

// spmmHeadsRowsEach computes rows [lo, hi) of the output, head by head.
func spmmHeadsRowsEach(o *Var, lo, hi int) {
	rp, colIdx, h := o.csr.RowPtr, o.csr.ColIdx, len(o.hp.row)
	width := o.Value.Cols
	ch := width / h
	ad, zd, od := o.in[0].Value.Data, o.in[1].Value.Data, o.Value.Data
	vec := simd.Enabled()
	for i := lo; i < hi; i++ {
		s, e := rp[i], rp[i+1]
		for k := range h {
			c := od[i*width+k*ch : i*width+(k+1)*ch]
			clear(c)
			if vec {
				simd.SpMMRow(1, colIdx[s:e], ad, o.hp.row[k][s:e], zd[k*ch:], width, c)
				continue
			}
			for q := s; q < e; q++ {
				j, v := int(colIdx[q]), ad[int(q)*h+k]
				zj := zd[j*width+k*ch : j*width+(k+1)*ch]
				for x, zv := range zj {
					c[x] += v * zv
				}
			}
		}
	}
}

func spmmHeadsBack(o *Var) {
	t, alpha, z := o.tape, o.in[0], o.in[1]
	if alpha.requiresGrad {
		if simd.Enabled() && len(o.hp.row) == 8 && o.Value.Cols == 64 {
			// the kernel writes every element of ∂alpha: a first gradient
			// needs no zeroing (it adds the dots to +0 itself)
			if _, beta := t.gradFor(alpha); beta == 0 {
				t.Exec.ForBalancedArg(o.csr.RowPtr, 64, o, spmmHeads8BackAlphaFirst)
			} else {
				t.Exec.ForBalancedArg(o.csr.RowPtr, 64, o, spmmHeadsBackAlpha)
			}
		} else {
			t.grad(alpha)
			if len(o.hp.row) < 2 || !headPanelsPay(o.csr, z.Value, len(o.hp.row)) || !spmmHeadsBackAlphaPanels(t.Exec, o) {
				t.Exec.ForBalancedArg(o.csr.RowPtr, z.Value.Cols, o, spmmHeadsBackAlpha)
			}
		}
	}
	if z.requiresGrad {
		t.grad(z)
		o.col = t.columns(o.csr)
		if !headPanelsPay(o.csr, o.Grad, len(o.hp.row)) || !spmmHeadsBackZPanels(t.Exec, o) {
			t.Exec.ForBalancedArg(o.col.ptr, z.Value.Cols, o, spmmHeadsBackZ)
		}
	}
}

// spmmHeadsBackAlpha adds the per-head edge gradients of rows [lo, hi):
// the dots of ∂out's row blocks with the source rows' Z blocks, computed as
// SDDMM does (into a stack buffer, then added at the strided positions).
// With 8 heads of 8 and the vector kernels it runs spmmHeads8BackAlpha,
// which gives the same bits.
func spmmHeadsBackAlpha(arg any, lo, hi int) {
	o := arg.(*Var)
	if simd.Enabled() && len(o.hp.row) == 8 && o.Value.Cols == 64 {
		spmmHeads8BackAlpha(o, lo, hi, false)
		return
	}
	var buf [256]float32
	spmmHeadsBackAlphaEach(o, lo, hi, buf[:])
}

// spmmHeadsBackAlphaEach is spmmHeadsBackAlpha head by head.
func spmmHeadsBackAlphaEach(o *Var, lo, hi int, buf []float32) {
	rp, colIdx, h := o.csr.RowPtr, o.csr.ColIdx, len(o.hp.row)
	width := o.Value.Cols
	ch := width / h
	gy, zd, ga := o.Grad.Data, o.in[1].Value.Data, o.in[0].Grad.Data
	vec := simd.Enabled()
	for i := lo; i < hi; i++ {
		for k := range h {
			gi := gy[i*width+k*ch : i*width+(k+1)*ch]
			for s := rp[i]; s < rp[i+1]; s += int32(len(buf)) {
				e := min(s+int32(len(buf)), rp[i+1])
				out := buf[:e-s]
				if vec {
					simd.SDDMMRow(colIdx[s:e], gi, zd[k*ch:], width, out)
				} else {
					for q := s; q < e; q++ {
						j := int(colIdx[q])
						var d float32
						for x, v := range gi {
							d += v * zd[j*width+k*ch+x]
						}
						out[q-s] = d
					}
				}
				for q, v := range out {
					ga[(int(s)+q)*h+k] += v
				}
			}
		}
	}
}

// spmmHeads8BackAlpha is spmmHeadsBackAlpha for 8 heads of 8 columns: the
// dots of all heads of a row's entries by one SDDMMHeads8 call, each
// SDDMMRow's to the bit, added to ∂alpha as the Go loop adds them (the dot
// the first operand; one entry's heads after another instead of one head's
// entries after another: every element of ∂alpha still gets one addition,
// of the same value).
// With first, ∂alpha's buffer is new and unzeroed, and the dots are added to
// +0 (the bits of a zeroed buffer).
func spmmHeads8BackAlpha(o *Var, lo, hi int, first bool) {
	rp, colIdx := o.csr.RowPtr, o.csr.ColIdx
	gy, zd, ga := o.Grad.Data, o.in[1].Value.Data, o.in[0].Grad.Data
	for i := lo; i < hi; i++ {
		s, e := rp[i], rp[i+1]
		simd.SDDMMHeads8(colIdx[s:e], gy[i*64:(i+1)*64], zd, 64, ga[8*int(s):8*int(e)], first)
	}
}

// spmmHeads8BackAlphaFirst is spmmHeads8BackAlpha writing a first gradient.
func spmmHeads8BackAlphaFirst(arg any, lo, hi int) {
	spmmHeads8BackAlpha(arg.(*Var), lo, hi, true)
}

// spmmHeadsBackZ adds A_kᵀ·∂out_k into the rows [lo, hi) of ∂Z (the
// column-index walk of spmmTCols): with heads of 8 columns and the vector
// kernels all heads of a row at once, otherwise head by head; the same bits.
func spmmHeadsBackZ(arg any, lo, hi int) {
	o := arg.(*Var)
	if simd.Enabled() && o.Value.Cols == 8*len(o.hp.row) {
		spmmHeadsBackZAll(o, lo, hi)
		return
	}
	spmmHeadsBackZEach(o, lo, hi)
}

// spmmHeadsBackZAll is spmmHeadsBackZ for heads of 8 columns, one
// simd.SpMMHeadsRow call a row of ∂Z.
func spmmHeadsBackZAll(o *Var, lo, hi int) {
	ci, h := o.col, len(o.hp.row)
	width := o.Value.Cols
	gy, ad, gz := o.Grad.Data, o.in[0].Value.Data, o.in[1].Grad.Data
	for j := lo; j < hi; j++ {
		s, e := ci.ptr[j], ci.ptr[j+1]
		if s == e {
			continue
		}
		simd.SpMMHeadsRow(1, ci.row[s:e], ad, h, ci.perm[s:e], gy, width, gz[j*width:(j+1)*width])
	}
}

// spmmHeadsBackZEach is spmmHeadsBackZ head by head.
func spmmHeadsBackZEach(o *Var, lo, hi int) {
	ci, h := o.col, len(o.hp.row)
	width := o.Value.Cols
	ch := width / h
	gy, ad, gz := o.Grad.Data, o.in[0].Value.Data, o.in[1].Grad.Data
	vec := simd.Enabled()
	for j := lo; j < hi; j++ {
		s, e := ci.ptr[j], ci.ptr[j+1]
		if s == e {
			continue
		}
		for k := range h {
			c := gz[j*width+k*ch : j*width+(k+1)*ch]
			if vec {
				simd.SpMMRow(1, ci.row[s:e], ad, o.hp.col[k][s:e], gy[k*ch:], width, c)
				continue
			}
			for q := s; q < e; q++ {
				v, i := ad[int(ci.perm[q])*h+k], int(ci.row[q])
				gi := gy[i*width+k*ch : i*width+(k+1)*ch]
				for x, g := range gi {
					c[x] += v * g
				}
			}
		}
	}
}

// spmmHeadsBackZPanels adds A_kᵀ·∂out_k into ∂Z head by head, as
// spmmHeadsPanels computes the forward product: the attention values copied
// head-major in the column index's order, then head k's block of ∂out
// packed into the Exec's Scratch and every row of ∂Z's head-k block
// computed from it through the column index (each element SpMMRow's chain,
// added to ∂Z as spmmHeadsBackZEach adds it: the same bits). It reports
// false, computing nothing, when the Scratch is absent or in use.
func spmmHeadsBackZPanels(e tensor.Exec, o *Var) bool {
	return headPanelProduct(e, o, o.Grad, o.col.perm, o.col.ptr, o.col.row, o.in[1].Grad.Data, false)
}

// spmmHeadsBackAlphaPanels adds the per-head edge gradients head by head,
// as spmmHeadsPanels computes the forward product: head k's block of Z
// packed into the Exec's Scratch, every row's dots with it (simd.SDDMMRow,
// each dot as spmmHeadsBackAlphaEach computes it) written head-major, and
// then added to ∂alpha at the strided positions in one pass, so that no
// head's pass reads and writes all of ∂alpha. Each element of ∂alpha gets
// the same one addition: the same bits. With one head Z's block is Z, so
// the caller keeps the row-by-row path. It reports false, computing
// nothing, when the Scratch is absent or in use.
func spmmHeadsBackAlphaPanels(e tensor.Exec, o *Var) bool {
	z := o.in[1].Value
	h := len(o.hp.row)
	width := z.Cols
	ch := width / h
	nnz := o.csr.NNZ()
	buf, ok := e.Scratch.Take(nnz*h + z.Rows*ch)
	if !ok {
		return false
	}
	defer e.Scratch.Release()
	hp := &headPanel{o: o, vals: buf[:nnz*h], panel: buf[nnz*h:], w: ch}
	for k := range h {
		for j := range z.Rows {
			copy(hp.panel[j*ch:(j+1)*ch], z.Data[j*width+k*ch:j*width+(k+1)*ch])
		}
		hp.k = k
		e.ForBalancedArg(o.csr.RowPtr, ch, hp, spmmHeadBackAlphaPanelRows)
	}
	e.ForArg(nnz, nnz*h, hp, addHeadMajor)
	return true
}

// spmmHeadBackAlphaPanelRows computes the dots of rows [lo, hi) for one
// head from its packed block of Z, into the head's stretch of hp.vals.
func spmmHeadBackAlphaPanelRows(arg any, lo, hi int) {
	hp := arg.(*headPanel)
	o := hp.o
	rp, colIdx := o.csr.RowPtr, o.csr.ColIdx
	width, ch, nnz := o.Value.Cols, hp.w, o.csr.NNZ()
	gy, out := o.Grad.Data, hp.vals[hp.k*nnz:(hp.k+1)*nnz]
	for i := lo; i < hi; i++ {
		s, e := rp[i], rp[i+1]
		simd.SDDMMRow(colIdx[s:e], gy[i*width+hp.k*ch:i*width+(hp.k+1)*ch], hp.panel, ch, out[s:e])
	}
}

// addHeadMajor adds entries [lo, hi) of the head-major dots in hp.vals to
// ∂alpha (row-major, nnz×h).
func addHeadMajor(arg any, lo, hi int) {
	hp := arg.(*headPanel)
	h, nnz := len(hp.o.hp.row), hp.o.csr.NNZ()
	ga := hp.o.in[0].Grad.Data
	for q := lo; q < hi; q++ {
		g := ga[q*h : (q+1)*h]
		for k := range g {
			g[k] += hp.vals[k*nnz+q]
		}
	}
}
