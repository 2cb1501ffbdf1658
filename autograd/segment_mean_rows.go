package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// SegmentMeanRows returns SegmentMean(Gather(x, rows), seg, numSeg) without
// the gathered matrix: row s is the mean of the rows rows[q] of x with
// seg[q] == s (seg has one entry per entry of rows; seg[q] < 0 leaves it
// out; an empty segment gives a zero row). The sums run over q in
// increasing order (the goroutines share the columns), and forward and
// backward make the floating-point operations of the two operations they
// replace, so the bits are theirs (PCGCN's class prototypes of the
// training nodes).
//
// Backward: ∂x[rows[q],:] += ∂out[seg[q],:]/count[seg[q]] for every q in
// order (+0 for seg[q] < 0), each term first rounded onto +0 as the
// gathered gradient was; when rows increase (distinct rows, one addition
// each) the goroutines share them.
func (t *Tape) SegmentMeanRows(x *Var, rows, seg []int32, numSeg int) *Var {
	if len(seg) != len(rows) {
		panic(fmt.Sprintf("autograd: SegmentMeanRows: %d segment ids for %d rows", len(seg), len(rows)))
	}
	for _, i := range rows {
		if i < 0 || int(i) >= x.Rows() {
			panic(fmt.Sprintf("autograd: SegmentMeanRows row %d outside %s", i, x.label()))
		}
	}
	cols := x.Cols()
	invD := t.segmentInverseCounts("SegmentMeanRows", seg, numSeg)
	out := t.AllocZero(numSeg, cols)
	o := t.op(out, x, nil)
	o.idx, o.lab, o.aux = rows, seg, invD
	// blocks of 16 columns shared among the goroutines: each column's sums
	// are one goroutine's, over q in order
	t.Exec.ForArg((cols+15)/16, len(rows)*cols, o, segmentMeanRowsSums)
	return t.done(o, segmentMeanRowsBack)
}

// segmentMeanRowsSums sums the columns of the blocks [lo, hi) of 16 over
// the entries in q order and scales them by the segments' inverse counts:
// SegmentMean's loops (or[j] += v through simd.AXPY with c = 1, one
// simd.AXPYRows call for all the rows, then od[j] *= f) on those columns.
func segmentMeanRowsSums(arg any, lo, hi int) {
	o := arg.(*Var)
	cols := o.Value.Cols
	c0, c1 := 16*lo, min(16*hi, cols)
	xd, od, inv := o.in[0].Value.Data, o.Value.Data, o.aux.Data
	if simd.Enabled() && !goFusesFMA { // SegmentMean's loop, packed
		// simd.AXPY(1, row, sum) for each training row in q order (rows of
		// a negative segment left out), in one call
		if c1 > c0 {
			simd.AXPYRows(1, o.idx, o.lab, xd[c0:], od[c0:], cols, c1-c0, -1)
		}
	} else {
		for q, s := range o.lab {
			if s < 0 {
				continue
			}
			i := int(o.idx[q])
			or := od[int(s)*cols+c0 : int(s)*cols+c1]
			for j, v := range xd[i*cols+c0 : i*cols+c1] {
				or[j] += v
			}
		}
	}
	for s, f := range inv {
		for j := s*cols + c0; j < s*cols+c1; j++ {
			od[j] *= f
		}
	}
}

// segmentMeanRowsBack adds to ∂x what SegmentMean's and then Gather's
// backward added: the gathered gradient's row q was ∂out[s]·f written
// onto +0 (the same for every q of segment s, so computed once per
// segment here, with the same operations), then added to ∂x[rows[q]] as
// that row times 1 plus ∂x's, row by row in q order.
func segmentMeanRowsBack(o *Var) {
	t := o.tape
	cols, numSeg := o.Value.Cols, o.Value.Rows
	t.grad(o.in[0])
	gy, inv := o.Grad.Data, o.aux.Data
	rowsD := t.AllocZero(numSeg+1, cols) // the per-segment rows, then a zero row for seg < 0
	td := rowsD.Data
	vec := simd.Enabled() && !goFusesFMA
	for s, f := range inv {
		if f == 0 { // no entry of this segment
			continue
		}
		tr := td[s*cols : (s+1)*cols]
		if vec {
			simd.AXPY(f, gy[s*cols:(s+1)*cols], tr)
			continue
		}
		for j, g := range gy[s*cols : (s+1)*cols] {
			tr[j] += g * f
		}
	}
	o.aux2 = rowsD
	if increasing(o.idx) {
		// distinct rows, one addition each: shared among the goroutines
		t.Exec.ForArg(len(o.idx), len(o.idx)*cols, o, segmentMeanRowsScatter)
	} else {
		segmentMeanRowsScatter(o, 0, len(o.idx)) // in q order: rows may repeat
	}
	o.aux2 = nil
	t.giveBack(rowsD)
}

// segmentMeanRowsScatter adds the per-segment rows (o.aux2) of entries
// [lo, hi) into their rows of ∂x, as Gather's backward added the gathered
// gradient: the row times 1 plus ∂x's.
func segmentMeanRowsScatter(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, numSeg := o.Value.Cols, o.Value.Rows
	gx, td := o.in[0].Grad.Data, o.aux2.Data
	if simd.Enabled() && !goFusesFMA {
		// simd.AXPY(1, segment row, node row) for each q in order, in one
		// call (simd.AXPYRows); a negative segment reads the zero row numSeg
		simd.AXPYRows(1, o.lab[lo:hi], o.idx[lo:hi], td, gx, cols, cols, numSeg)
		return
	}
	for q := lo; q < hi; q++ {
		s := o.lab[q]
		if s < 0 {
			s = int32(numSeg)
		}
		i := int(o.idx[q])
		tr, gr := td[int(s)*cols:(int(s)+1)*cols], gx[i*cols:(i+1)*cols]
		for j, g := range tr {
			gr[j] += g
		}
	}
}
