package autograd

import "fmt"

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
		if o.idx != nil {
			o.idx[i] = int32(best)
		}
	}
}
