package autograd

// OneHotArgmax returns a constant (no gradient) matrix of x's shape holding a
// 1 at each row's largest element and 0 elsewhere; ties go to the lowest
// column index. NaN elements are skipped, so a row without any number has no 1.
//
// Backward: none.
func (t *Tape) OneHotArgmax(x *Var) *Var {
	rows, cols := x.Rows(), x.Cols()
	out := t.AllocZero(rows, cols)
	xd, od := x.Value.Data, out.Data
	t.Exec.For(rows, len(xd), func(lo, hi int) {
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
	})
	return t.newVar(out)
}
