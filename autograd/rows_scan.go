package autograd

import (
	"math"
	"sync/atomic"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// rowScan holds the operands of maskRows' parallel scan: the rows kept,
// the gradient scanned and whether a row left out holds a non-zero.
type rowScan struct {
	rows  []int32
	g     *tensor.Dense
	dirty atomic.Bool
}

// maskRows clears the rows of g that rows does not name when any of them
// holds a non-zero, so that g becomes M·g; rows of zeros only (of either
// sign) are left as they are, so that a g already zero there keeps its bits.
// The rows left out are scanned in parallel (the row ops' backward in a
// LINKX step: n − m rows of every n-row gradient, which is zero there).
func (t *Tape) maskRows(rows []int32, g *tensor.Dense) {
	n := g.Cols
	s := &t.scan
	s.rows, s.g = rows, g
	s.dirty.Store(false)
	t.Exec.ForArg(g.Rows, (g.Rows-len(rows))*n, s, scanRowsLeftOut)
	dirty := s.dirty.Load()
	s.rows, s.g = nil, nil
	if !dirty {
		return
	}
	next := 0
	for _, i := range rows {
		clear(g.Data[next*n : int(i)*n])
		next = int(i) + 1
	}
	clear(g.Data[next*n:])
}

// scanRowsLeftOut sets the scan's dirty flag when a row in [lo, hi) that
// the scan's rows leave out holds a non-zero.
func scanRowsLeftOut(arg any, lo, hi int) {
	s := arg.(*rowScan)
	n, rows := s.g.Cols, s.rows
	q := searchRow(rows, lo)
	for next := lo; next < hi; {
		end := hi // the gap [next, end) of rows left out
		if q < len(rows) && int(rows[q]) < hi {
			end = int(rows[q])
		}
		if end > next && nonZeroIn(s.g.Data[next*n:end*n]) {
			s.dirty.Store(true)
			return
		}
		if end == hi {
			return
		}
		next, q = end+1, q+1
	}
}

// nonZeroIn reports whether x holds an element that is neither +0 nor −0.
func nonZeroIn(x []float32) bool {
	if simd.Enabled() {
		return simd.CountNonZero(x) != 0
	}
	for _, v := range x {
		if math.Float32bits(v)&0x7fffffff != 0 {
			return true
		}
	}
	return false
}

// keptNonZeroRows is nonZeroRowsOf(g) for a g that holds only zeros (of
// either sign) outside rows, as maskRows leaves it: the same list and the
// same answer, but only rows' rows are scanned, each run of consecutive
// ones in one simd.NonZeroRowList call (TestKeptNonZeroRowsMatchesNonZeroRowsOf).
func (t *Tape) keptNonZeroRows(rows []int32, g *tensor.Dense) ([]int32, bool) {
	m, k := g.Rows, g.Cols
	if m < 64 || k < 16 || !simd.Enabled() {
		return t.nonZeroRowsOf(g)
	}
	most := m - m/8
	if cap(t.i32) < most {
		t.i32 = make([]int32, 0, most)
	}
	out := t.i32[:most]
	cnt := 0
	for q := 0; q < len(rows); {
		r0 := q // the run rows[r0:q] of consecutive rows
		for q++; q < len(rows) && rows[q] == rows[q-1]+1; q++ {
		}
		lo, hi := int(rows[r0]), int(rows[q-1])+1
		left := most - cnt
		c := simd.NonZeroRowList(g.Data[lo*k:hi*k], k, left, out[cnt:cnt+min(left, hi-lo)])
		if c < 0 {
			return nil, false
		}
		for j := cnt; j < cnt+c; j++ {
			out[j] += int32(lo)
		}
		cnt += c
	}
	t.i32 = out[:cnt]
	return t.i32, true
}
