package autograd

import "fmt"

// SliceCols returns columns [from, to) of x as a new rows×(to−from) matrix
// (e.g. one head of a multi-head score matrix).
//
// Backward: ∂x[:, from:to] += ∂out.
func (t *Tape) SliceCols(x *Var, from, to int) *Var {
	cols := x.Cols()
	if from < 0 || to > cols || from > to {
		panic(fmt.Sprintf("autograd: SliceCols [%d,%d) of %s", from, to, x.label()))
	}
	rows, c := x.Rows(), to-from
	out := t.Alloc(rows, c)
	xd, od := x.Value.Data, out.Data
	t.Exec.For(rows, len(od), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			copy(od[i*c:(i+1)*c], xd[i*cols+from:i*cols+to])
		}
	})
	return t.record(out, func(o *Var) {
		gx, gy := t.grad(x).Data, o.Grad.Data
		t.Exec.For(rows, len(gy), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				d := gx[i*cols+from : i*cols+to]
				for j, v := range gy[i*c : (i+1)*c] {
					d[j] += v
				}
			}
		})
	}, x)
}
