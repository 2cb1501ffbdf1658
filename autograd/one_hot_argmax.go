package autograd

// OneHotArgmax returns a constant (no gradient) matrix of x's shape holding a
// 1 at each row's largest element and 0 elsewhere; ties go to the lowest
// column index. NaN elements are skipped, so a row without any number has no 1.
//
// Backward: none.
func (t *Tape) OneHotArgmax(x *Var) *Var {
	o := t.op(t.Alloc(x.Rows(), x.Cols()), x, nil) // each chunk clears its rows
	t.Exec.ForArg(x.Rows(), x.Value.Len(), o, oneHotArgmaxRows)
	o.in[0] = nil // a constant: nothing to record
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
	}
}
