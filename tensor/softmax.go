package tensor

import "fmt"

// RowSoftmax computes, for each row i of pattern, out[k] = exp(v[k]-m) / Σ
// exp(v[k']-m) over that row's stored entries (m the row maximum): the
// per-destination softmax of edge scores used by graph attention. Empty rows
// are left alone. out may alias vals.
func RowSoftmax(e Exec, pattern *CSR, vals, out []float32) {
	if len(vals) != pattern.NNZ() || len(out) != pattern.NNZ() {
		panic(fmt.Sprintf("tensor: RowSoftmax got %d values and %d outputs for %s", len(vals), len(out), pattern.Shape()))
	}
	e.forDynamicBalanced(pattern.RowPtr, 8, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			a, b := pattern.RowPtr[i], pattern.RowPtr[i+1]
			softmaxInto(vals[a:b], out[a:b])
		}
	})
}

// softmaxInto writes the softmax of x into y (may alias), stably.
func softmaxInto(x, y []float32) {
	if len(x) == 0 {
		return
	}
	m := x[0]
	for _, v := range x[1:] {
		if v > m {
			m = v
		}
	}
	var s float64
	for i, v := range x {
		ev := float32(expNonPos(float64(v - m)))
		y[i] = ev
		s += float64(ev)
	}
	inv := float32(1 / s)
	for i := range y {
		y[i] *= inv
	}
}

// SoftmaxRows writes the row-wise softmax of a dense matrix x into y (may alias).
func SoftmaxRows(e Exec, x, y *Dense) {
	MustSameShape("SoftmaxRows", x, y)
	e.For(x.Rows, x.Len()*8, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			softmaxInto(x.Row(i), y.Row(i))
		}
	})
}
