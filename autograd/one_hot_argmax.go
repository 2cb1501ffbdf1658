package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// OneHotArgmax returns a constant (no gradient) matrix of x's shape holding a
// 1 at each row's largest element and 0 elsewhere; ties go to the lowest
// column index. NaN elements are skipped, so a row without any number has no 1.
//
// Backward: none.
func (t *Tape) OneHotArgmax(x *Var) *Var { return t.OneHotArgmaxIndex(x, nil) }

// OneHotArgmaxIndex is OneHotArgmax that also writes each row's column of
// the 1 into idx (len(idx) == x.Rows()), or −1 for a row without any number;
// idx may be nil.
func (t *Tape) OneHotArgmaxIndex(x *Var, idx []int32) *Var {
	if idx != nil && len(idx) != x.Rows() {
		panic(fmt.Sprintf("autograd: OneHotArgmaxIndex of %s into %d indices", x.label(), len(idx)))
	}
	o := t.op(t.Alloc(x.Rows(), x.Cols()), x, nil) // each chunk clears its rows
	o.idx = idx
	t.Exec.ForArg(x.Rows(), x.Value.Len(), o, oneHotArgmaxRows)
	o.in[0], o.idx = nil, nil // a constant: nothing to record
	return o
}

func oneHotArgmaxRows(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, xd, od := o.Value.Cols, o.in[0].Value.Data, o.Value.Data
	if simd.Enabled() && cols >= 1 && cols <= 8 {
		oneHotArgmaxVector(xd, od, cols, o.idx, lo, hi)
		return
	}
	oneHotArgmaxGo(xd, od, cols, o.idx, lo, hi)
}

// oneHotArgmaxGo writes rows [lo, hi) of the one-hot od of xd (and their
// indices to idx when not nil): each row's first largest non-NaN element.
func oneHotArgmaxGo(xd, od []float32, cols int, idx []int32, lo, hi int) {
	clear(od[lo*cols : hi*cols])
	for i := lo; i < hi; i++ {
		best := -1
		for j, v := range xd[i*cols : (i+1)*cols] {
			if v == v && (best < 0 || v > xd[i*cols+best]) {
				best = j
			}
		}
		if best >= 0 {
			od[i*cols+best] = 1
		}
		if idx != nil {
			idx[i] = int32(best)
		}
	}
}

// oneHotArgmaxVector is oneHotArgmaxRows for rows of at most eight columns
// (an assignment's classes): simd.OneHotArgmaxRows finds the Go loop's index
// (the first largest non-NaN value, or −1) without its data-dependent
// branches and writes the row's 1 and +0s, so the zeroing pass goes too
// (TestOneHotArgmaxVectorMatchesGo). Without idx, the indices go to a
// buffer on the stack, 256 rows at a time.
func oneHotArgmaxVector(xd, od []float32, cols int, idx []int32, lo, hi int) {
	if idx != nil {
		simd.OneHotArgmaxRows(xd[lo*cols:hi*cols], cols, idx[lo:hi], od[lo*cols:hi*cols])
		return
	}
	var buf [256]int32
	for b0 := lo; b0 < hi; b0 += len(buf) {
		b1 := min(b0+len(buf), hi)
		simd.OneHotArgmaxRows(xd[b0*cols:b1*cols], cols, buf[:b1-b0], od[b0*cols:b1*cols])
	}
}
