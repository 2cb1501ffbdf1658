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
	o := t.op(t.Alloc(x.Rows(), to-from), x, nil)
	o.i0, o.i1 = from, to
	t.Exec.ForArg(x.Rows(), o.Value.Len(), o, sliceColsRows)
	return t.done(o, sliceColsBack)
}

func sliceColsRows(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, c, from, to := o.in[0].Value.Cols, o.Value.Cols, o.i0, o.i1
	xd, od := o.in[0].Value.Data, o.Value.Data
	for i := lo; i < hi; i++ {
		copy(od[i*c:(i+1)*c], xd[i*cols+from:i*cols+to])
	}
}

func sliceColsBack(o *Var) {
	o.tape.grad(o.in[0])
	o.tape.Exec.ForArg(o.Value.Rows, o.Value.Len(), o, sliceColsBackRows)
}

func sliceColsBackRows(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, c, from, to := o.in[0].Value.Cols, o.Value.Cols, o.i0, o.i1
	gx, gy := o.in[0].Grad.Data, o.Grad.Data
	for i := lo; i < hi; i++ {
		d := gx[i*cols+from : i*cols+to]
		for j, v := range gy[i*c : (i+1)*c] {
			d[j] += v
		}
	}
}
