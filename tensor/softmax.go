package tensor

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// RowSoftmax computes, for each row i of pattern, out[k] = exp(v[k]-m) / Σ
// exp(v[k']-m) over that row's stored entries (m the row maximum): the
// per-destination softmax of edge scores used by graph attention. Empty rows
// are left alone. out may alias vals.
func RowSoftmax(e Exec, pattern *CSR, vals, out []float32) {
	if len(vals) != pattern.NNZ() || len(out) != pattern.NNZ() {
		panic(fmt.Sprintf("tensor: RowSoftmax got %d values and %d outputs for %s", len(vals), len(out), pattern.Shape()))
	}
	kd := kernel{rowPtr: pattern.RowPtr, val: vals, out: out}
	rows := pattern.Rows
	if e.Serial(rows, int(pattern.RowPtr[rows])*8) {
		rowSoftmaxRows(&kd, 0, rows)
		return
	}
	e.runKernel(rows, pattern.RowPtr, kd, rowSoftmaxRows)
}

// rowSoftmaxRows computes rows [lo, hi) of RowSoftmax.
func rowSoftmaxRows(kd *kernel, lo, hi int) {
	for i := lo; i < hi; i++ {
		a, b := kd.rowPtr[i], kd.rowPtr[i+1]
		softmaxInto(kd.val[a:b], kd.out[a:b])
	}
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
	for i, v := range x {
		y[i] = v - m
	}
	ExpNonPosSlice(y)
	var s float64
	for _, ev := range y {
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
	kd := kernel{a: x, c: y}
	if e.Serial(x.Rows, x.Len()*8) {
		softmaxDenseRows(&kd, 0, x.Rows)
		return
	}
	e.forChunks(x.Rows, job{kb: softmaxDenseRows}, kd)
}

// softmaxBlockFloats is how many elements of y softmaxDenseRows takes
// through one ExpNonPosSlice call (8 KiB, so the three passes over a block
// stay in L1).
const softmaxBlockFloats = 2048

// softmaxDenseRows computes rows [lo, hi) of SoftmaxRows: softmaxInto row by
// row, except that the exponentials of a block of rows go through one
// ExpNonPosSlice call instead of one per row. Each exponential depends only
// on its own input (the vector kernel's lanes and the portable loop's
// elements alike), so the bits are softmaxInto's; rows of a few columns (a
// PCGCN assignment has one per class) no longer pay a call and a masked
// tail each (TestSoftmaxRowsMatchesRowByRow).
func softmaxDenseRows(kd *kernel, lo, hi int) {
	cols := kd.a.Cols
	if cols == 0 {
		return
	}
	per := max(1, softmaxBlockFloats/cols)
	x, y := kd.a.Data, kd.c.Data
	if simd.Enabled() && cols <= 8 {
		// the loops below for narrow rows, one kernel call for each
		// (TestSoftmaxNarrowRowsMatchesGo)
		for b0 := lo; b0 < hi; b0 += per {
			b1 := min(b0+per, hi)
			yb := y[b0*cols : b1*cols]
			simd.SoftmaxShiftRows(x[b0*cols:b1*cols], cols, yb)
			ExpNonPosSlice(yb)
			simd.SoftmaxNormRows(yb, cols)
		}
		return
	}
	for b0 := lo; b0 < hi; b0 += per {
		b1 := min(b0+per, hi)
		for i := b0; i < b1; i++ {
			xi, yi := x[i*cols:(i+1)*cols], y[i*cols:(i+1)*cols]
			m := xi[0]
			for _, v := range xi[1:] {
				if v > m {
					m = v
				}
			}
			for j, v := range xi {
				yi[j] = v - m
			}
		}
		ExpNonPosSlice(y[b0*cols : b1*cols])
		for i := b0; i < b1; i++ {
			yi := y[i*cols : (i+1)*cols]
			var s float64
			for _, ev := range yi {
				s += float64(ev)
			}
			inv := float32(1 / s)
			for j := range yi {
				yi[j] *= inv
			}
		}
	}
}
