package autograd

import (
	"fmt"
	"math"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// ConcatMatMulRows returns [x₀ x₁ …]·w on the rows that rows names
// (ascending, distinct) and +0 on the others: the bits of MatMulRows(
// ConcatColsRows(rows, xs...), w, rows) (LINKX's [h_A‖h_X]·W in a training
// step) without the n-row concatenation and its n-row gradient: the kept
// rows are gathered straight into one compact matrix, kept for ∂w, and the
// gradient of the concatenation exists only on ∂out's non-zero rows.
//
// Backward, as the two operations' (TestConcatMatMulRowsMatchesTwoOps): ∂out
// masked to the rows (M·∂out) when it is not zero outside them; then, when
// at least an eighth of its rows are zeros (nonZeroRowsOf), ∂out's non-zero
// rows times wᵀ (gemmNonZeroRows' products) added into each ∂xₖ as
// ConcatCols' backward adds (g + d), the other rows of ∂xₖ getting the +0
// it adds there (−0 becomes +0, a signalling NaN is quieted), and ∂w
// folded block by block of tensor.GemmBlockK rows over those rows, as
// gemmTransANonZeroRows folds it; otherwise the whole products, as MatMul's
// backward over the whole concatenation.
func (t *Tape) ConcatMatMulRows(rows []int32, w *Var, xs ...*Var) *Var {
	if len(xs) == 0 {
		panic("autograd: ConcatMatMulRows of nothing")
	}
	n, cols := xs[0].Rows(), 0
	for _, x := range xs {
		if x.Rows() != n {
			panic(fmt.Sprintf("autograd: ConcatMatMulRows: %s next to %d rows", x.label(), n))
		}
		cols += x.Cols()
	}
	if cols != w.Rows() {
		panic(fmt.Sprintf("autograd: ConcatMatMulRows: %d concatenated columns · %s", cols, w.label()))
	}
	checkRows(rows, n)
	m := len(rows)
	o := t.op(t.Alloc(n, w.Cols()), w, nil)
	o.xs, o.idx = t.keepVars(xs), rows
	o.aux = t.Alloc(m, cols) // the kept rows of the concatenation
	t.Exec.ForArg(m, m*cols, o, concatRowsGather)
	if m == 0 {
		clear(o.Value.Data)
	} else {
		cs := t.Alloc(m, w.Cols())
		tensor.GemmPerThread(t.Exec, false, false, 1, o.aux, w.Value, 0, cs)
		clearOutside(rows, o.Value)
		t.rowArgs = rowCopy{rows: rows, from: cs, to: o.Value}
		t.Exec.ForArg(m, m*cs.Cols, &t.rowArgs, scatterRowsInto)
		t.rowArgs = rowCopy{}
		t.giveBack(cs)
	}
	needs := w.requiresGrad
	for _, x := range xs {
		needs = needs || x.requiresGrad
	}
	return t.record1(o, concatMatMulRowsBack, needs)
}

// concatRowsGather copies the kept rows [lo, hi) of [x₀ x₁ …] into o.aux.
func concatRowsGather(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, ad := o.aux.Cols, o.aux.Data
	for q := lo; q < hi; q++ {
		i, off := int(o.idx[q]), q*cols
		for _, x := range o.xs {
			c := x.Value.Cols
			copy(ad[off:off+c], x.Value.Data[i*c:(i+1)*c])
			off += c
		}
	}
}

// clearOutside sets c's rows that rows does not name to +0.
func clearOutside(rows []int32, c *tensor.Dense) {
	n, next := c.Cols, 0
	for _, i := range rows {
		clear(c.Data[next*n : int(i)*n])
		next = int(i) + 1
	}
	clear(c.Data[next*n:])
}

func concatMatMulRowsBack(o *Var) {
	t, w := o.tape, o.in[0]
	t.maskRows(o.idx, o.Grad)
	nz, ok := t.keptNonZeroRows(o.idx, o.Grad)
	anyX := false
	for _, x := range o.xs {
		anyX = anyX || x.requiresGrad
	}
	// the order of MatMul's backward: the concatenation's gradient, then ∂w;
	// then ConcatCols' into each input
	var dc *tensor.Dense // ∂[x₀ x₁ …] on nz's rows (ok) or on every row
	var gs *tensor.Dense // ∂out's nz rows gathered (ok, anyX, nz not empty)
	if anyX {
		if ok {
			dc = t.Alloc(len(nz), w.Rows())
			if len(nz) > 0 {
				gs = t.Alloc(len(nz), o.Grad.Cols)
				t.rowArgs = rowCopy{rows: nz, from: o.Grad, to: gs}
				t.Exec.ForArg(len(nz), len(nz)*gs.Cols, &t.rowArgs, gatherRowsInto)
				t.rowArgs = rowCopy{}
				tensor.GemmPerThread(t.Exec, false, true, 1, gs, w.Value, 0, dc)
			}
		} else {
			dc = t.Alloc(o.Value.Rows, w.Rows())
			tensor.Gemm(t.Exec, false, true, 1, o.Grad, w.Value, 0, dc)
		}
	}
	if w.requiresGrad {
		g, beta := t.gradFor(w)
		if ok && simd.Enabled() {
			t.gemmTransAKeptRows(nz, o.idx, o.aux, o.Grad, gs, beta, g)
		} else {
			cat := t.Alloc(o.Value.Rows, w.Rows())
			clearOutside(o.idx, cat)
			t.rowArgs = rowCopy{rows: o.idx, from: o.aux, to: cat}
			t.Exec.ForArg(len(o.idx), len(o.idx)*cat.Cols, &t.rowArgs, scatterRowsInto)
			t.rowArgs = rowCopy{}
			tensor.Gemm(t.Exec, true, false, 1, cat, o.Grad, beta, g)
			t.giveBack(cat)
		}
	}
	if gs != nil {
		t.giveBack(gs)
	}
	if !anyX {
		return
	}
	o.aux2, o.lab, o.p = dc, nz, 0
	if ok {
		o.p = 1 // dc holds nz's rows only
	}
	from := 0
	for k, x := range o.xs {
		if x.requiresGrad {
			t.grad(x)
			o.i0, o.i1 = from, k
			t.Exec.ForArg(o.Value.Rows, o.Value.Rows*x.Value.Cols, o, concatMatMulRowsAdd)
		}
		from += x.Value.Cols
	}
	o.aux2, o.lab = nil, nil
	t.giveBack(dc)
}

// concatMatMulRowsAdd adds columns [from, from+c) of the concatenation's
// gradient into the gradient of input o.i1 on rows [lo, hi): g + d as
// ConcatCols' backward (simd.AddScaled(g, d, d, 1, 1), see
// concatColsRowsBackRows), and where the gradient holds only nz's rows,
// +0 + d on the others: −0 becomes +0, a signalling NaN is quieted.
func concatMatMulRowsAdd(arg any, lo, hi int) {
	o := arg.(*Var)
	x := o.xs[o.i1]
	cols, c, from := o.aux2.Cols, x.Value.Cols, o.i0
	dst, g := x.Grad.Data, o.aux2.Data
	nz, only := o.lab, o.p == 1 // only: dc holds nz's rows only
	q := 0
	if only {
		q = searchRow(nz, lo)
	}
	for i := lo; i < hi; i++ {
		d := dst[i*c : (i+1)*c]
		r := i
		if only {
			if q == len(nz) || int(nz[q]) != i {
				plusZero(d)
				continue
			}
			r = q
			q++
		}
		gr := g[r*cols+from : r*cols+from+c]
		if simd.Enabled() {
			simd.AddScaled(gr, d, d, 1, 1)
			continue
		}
		for j, v := range gr {
			d[j] += v
		}
	}
}

// plusZero sets d = +0 + d: −0 becomes +0 and a signalling NaN quiet, as an
// addition of +0 leaves them; everything else stays. With the vector
// kernels it is the addition itself, ConcatCols' (1·(+0)) + (1·d) through
// simd.AddScaled against a block of zeros.
func plusZero(d []float32) {
	if simd.Enabled() {
		var zero [reluMixBlock]float32
		for s := 0; s < len(d); s += reluMixBlock {
			e := min(s+reluMixBlock, len(d))
			simd.AddScaled(zero[:e-s], d[s:e], d[s:e], 1, 1)
		}
		return
	}
	for j, v := range d {
		b := math.Float32bits(v)
		if b == 0x80000000 {
			d[j] = 0
		} else if b&0x7f800000 == 0x7f800000 && b&0x007fffff != 0 {
			d[j] = math.Float32frombits(b | 0x00400000)
		}
	}
}

// gemmTransAKeptRows is gemmTransANonZeroRows for an x that holds only the
// kept rows (x's row q is row kept[q]): rows (∂out's non-zero rows, all
// kept) are found in x by their position in kept, and each block of
// tensor.GemmBlockK inner indices (of the whole matrix) is multiplied on
// its own and folded, an empty block folding +0. gs, when not nil, holds
// g's rows that rows names, gathered in that order: a block then reads its
// rows of ∂out from gs in place, and its rows of x in place too when they
// are consecutive rows of x (every kept row of the block non-zero, the
// usual case), so that nothing is copied; the products are the same
// matrices, so the same bits (TestConcatMatMulRowsMatchesTwoOps).
func (t *Tape) gemmTransAKeptRows(rows, kept []int32, x, g, gs *tensor.Dense, beta float32, c *tensor.Dense) {
	kb := tensor.GemmBlockK
	q, p := 0, 0 // position in rows, position in kept
	for k0 := 0; k0 < g.Rows; k0 += kb {
		q0 := q
		for q < len(rows) && int(rows[q]) < k0+kb {
			q++
		}
		if q == q0 {
			foldEmptyBlock(c, beta)
			beta = 1
			continue
		}
		sub := rows[q0:q]
		for kept[p] != sub[0] {
			p++
		}
		var xs, gb *tensor.Dense
		xView := p+len(sub) <= len(kept) && kept[p+len(sub)-1] == sub[len(sub)-1]
		if xView {
			// sub ⊆ kept, both ascending: sub is kept[p : p+len(sub)]
			xs = t.view(len(sub), x.Cols, x.Data[p*x.Cols:(p+len(sub))*x.Cols])
		} else {
			xs = t.Alloc(len(sub), x.Cols)
			for j, r := range sub {
				for kept[p] != r {
					p++
				}
				copy(xs.Data[j*x.Cols:(j+1)*x.Cols], x.Data[p*x.Cols:(p+1)*x.Cols])
			}
		}
		if gs != nil {
			gb = t.view(len(sub), gs.Cols, gs.Data[q0*gs.Cols:q*gs.Cols])
		} else {
			gb = t.Alloc(len(sub), g.Cols)
			t.rowArgs = rowCopy{rows: sub, from: g, to: gb}
			t.Exec.ForArg(len(sub), len(sub)*g.Cols, &t.rowArgs, gatherRowsInto)
			t.rowArgs = rowCopy{}
		}
		tensor.GemmPerThread(t.Exec, true, false, 1, xs, gb, beta, c)
		if gs == nil {
			t.giveBack(gb)
		}
		if !xView {
			t.giveBack(xs)
		}
		beta = 1
	}
}
