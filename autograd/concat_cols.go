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
	out := t.Alloc(rows, cols)
	od := out.Data
	t.Exec.For(rows, len(od), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			off := i * cols
			for _, x := range xs {
				c := x.Cols()
				copy(od[off:off+c], x.Value.Data[i*c:(i+1)*c])
				off += c
			}
		}
	})
	xs = append([]*Var(nil), xs...) // the caller may reuse its slice
	return t.record(out, func(o *Var) {
		gy := o.Grad.Data
		from := 0
		for _, x := range xs {
			c := x.Cols()
			if x.requiresGrad {
				addColBlock(t, t.grad(x).Data, gy, rows, cols, from, c)
			}
			from += c
		}
	}, xs...)
}

// addColBlock adds columns [from, from+c) of the rows×cols matrix g into the
// rows×c matrix dst, row-parallel.
func addColBlock(t *Tape, dst, g []float32, rows, cols, from, c int) {
	t.Exec.For(rows, rows*c, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			d := dst[i*c : (i+1)*c]
			for j, v := range g[i*cols+from : i*cols+from+c] {
				d[j] += v
			}
		}
	})
}
