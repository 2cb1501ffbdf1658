package autograd

import "fmt"

// ConcatCols returns the side-by-side concatenation [x₀ x₁ …] of matrices with
// equal row counts (e.g. the heads of a multi-head layer).
//
// Backward: each ∂xₖ += its block of columns of ∂out.
func (t *Tape) ConcatCols(xs ...*Var) *Var {
	if len(xs) == 0 {
		panic("autograd: ConcatCols of nothing")
	}
	rows, cols := xs[0].Rows(), 0
	for _, x := range xs {
		if x.Rows() != rows {
			panic(fmt.Sprintf("autograd: ConcatCols: %s next to %d rows", x.label(), rows))
		}
		cols += x.Cols()
	}
	o := t.op(t.Alloc(rows, cols), nil, nil)
	o.xs = t.keepVars(xs) // the caller may reuse its slice
	t.Exec.ForArg(rows, rows*cols, o, concatColsRows)
	needs := false
	for _, x := range xs {
		needs = needs || x.requiresGrad
	}
	return t.record1(o, concatColsBack, needs)
}

func concatColsRows(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, od := o.Value.Cols, o.Value.Data
	for i := lo; i < hi; i++ {
		off := i * cols
		for _, x := range o.xs {
			c := x.Value.Cols
			copy(od[off:off+c], x.Value.Data[i*c:(i+1)*c])
			off += c
		}
	}
}

// concatColsBack adds each input's block of columns of ∂out into its
// gradient, one input at a time (o.i0: the block's first column, o.i1: the
// input's index).
func concatColsBack(o *Var) {
	t := o.tape
	from := 0
	for k, x := range o.xs {
		if x.requiresGrad {
			t.grad(x)
			o.i0, o.i1 = from, k
			t.Exec.ForArg(o.Value.Rows, o.Value.Rows*x.Value.Cols, o, concatColsBackRows)
		}
		from += x.Value.Cols
	}
}

// concatColsBackRows adds columns [from, from+c) of ∂out into the gradient
// of input o.i1 (rows×c) on rows [lo, hi).
func concatColsBackRows(arg any, lo, hi int) {
	o := arg.(*Var)
	x := o.xs[o.i1]
	cols, c, from := o.Value.Cols, x.Value.Cols, o.i0
	dst, g := x.Grad.Data, o.Grad.Data
	for i := lo; i < hi; i++ {
		d := dst[i*c : (i+1)*c]
		for j, v := range g[i*cols+from : i*cols+from+c] {
			d[j] += v
		}
	}
}
