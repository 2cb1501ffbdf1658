package autograd

import (
	"fmt"
	"slices"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// MatMulRows returns a·b on the rows of a that rows names (ascending,
// distinct) and +0 on the others: for a caller that reads only those rows,
// such as a training step of a row-wise model (LINKX) whose loss reads only
// the training nodes. Each row computed is the product's own chain, whatever
// the other rows (the rows are gathered, multiplied and scattered, as the
// backward of MatMul multiplies ∂out's non-zero rows), so its bits are
// MatMul's.
//
// Backward: the gradient of the rows kept, M·∂out with M the rows' mask,
// then MatMul's: ∂a += (M·∂out)·bᵀ, ∂b += aᵀ·(M·∂out). When ∂out holds only
// zeros (of either sign) outside rows, as it does for such a caller, M·∂out
// is ∂out itself, left as it is, so the gradients have MatMul's bits
// (TestMatMulRowsMatchesMatMul).
func (t *Tape) MatMulRows(a, b *Var, rows []int32) *Var {
	if a.Cols() != b.Rows() {
		panic(fmt.Sprintf("autograd: MatMulRows %s · %s", a.label(), b.label()))
	}
	checkRows(rows, a.Rows())
	o := t.op(t.Alloc(a.Rows(), b.Cols()), a, b)
	o.idx = rows
	t.gemmRows(rows, a.Value, b.Value, o.Value)
	return t.done(o, matMulRowsBack)
}

func matMulRowsBack(o *Var) {
	o.tape.maskRows(o.idx, o.Grad)
	matMulBack(o)
}

// KeptRows is a sparse matrix a with only some of its rows kept (the
// others emptied), made once for SpMMRows: a fixed graph, a fixed set of
// rows such as a split's training nodes.
type KeptRows struct {
	a, kept *tensor.CSR
	rows    []int32
	unit    bool // every stored value of a is 1
}

// KeepRows returns a with only the rows that rows (ascending, distinct)
// names kept: a copy of those rows' pattern and values, every other row
// empty.
func KeepRows(a *tensor.CSR, rows []int32) *KeptRows {
	checkRows(rows, a.Rows)
	nnz := 0
	for _, i := range rows {
		nnz += int(a.RowPtr[i+1] - a.RowPtr[i])
	}
	rp, ci, val := make([]int32, a.Rows+1), make([]int32, 0, nnz), make([]float32, 0, nnz)
	q := 0
	for i := 0; i < a.Rows; i++ {
		if q < len(rows) && int(rows[q]) == i {
			s, e := a.RowPtr[i], a.RowPtr[i+1]
			ci = append(ci, a.ColIdx[s:e]...)
			val = append(val, a.Val[s:e]...)
			q++
		}
		rp[i+1] = int32(len(ci))
	}
	kept, err := tensor.NewCSR(a.Rows, a.Cols, rp, ci, val)
	if err != nil {
		panic("autograd: KeepRows: " + err.Error()) // a's own rows: cannot happen
	}
	unit := true
	for _, v := range a.Val {
		unit = unit && v == 1
	}
	return &KeptRows{a: a, kept: kept, rows: rows, unit: unit}
}

// Rows returns the rows kept.
func (k *KeptRows) Rows() []int32 { return k.rows }

// SpMMRows returns a·x on the rows k keeps and +0 on the others, computed
// as kept·x: each row is SpMM's chain of that row, so its bits are SpMM's.
//
// Backward: ∂x += keptᵀ·∂out = aᵀ·(M·∂out), M the rows' mask. For a whose
// values are all 1 (a 0/1 adjacency or bag of words) it is keptᵀ·∂out:
// when ∂out holds only zeros outside the rows, the terms keptᵀ leaves out
// are 1·(+0) or 1·(−0), which leave a chain that starts at +0 as it is (the
// chain is never −0: the products by 1 are exact and a sum of two floats
// does not underflow to −0), so the bits are SpMM's over a. For other
// values (a product with ±0 may then round a chain to −0) it is aᵀ·(M·∂out)
// with ∂out used as it is when it is zero outside the rows: SpMM's
// backward, bit for bit (TestSpMMRowsMatchesSpMM).
func (t *Tape) SpMMRows(k *KeptRows, x *Var) *Var {
	a := k.a
	if a.Cols != x.Rows() {
		panic(fmt.Sprintf("autograd: SpMMRows %s · %s", a.Shape(), x.label()))
	}
	o := t.op(t.Alloc(a.Rows, x.Cols()), x, nil)
	o.idx = k.rows
	tensor.SpMM(t.Exec, 1, k.kept, x.Value, 0, o.Value)
	if k.unit {
		o.csr = k.kept
		return t.done(o, spmmBack)
	}
	o.csr = a
	return t.done(o, spmmRowsBack)
}

func spmmRowsBack(o *Var) {
	o.tape.maskRows(o.idx, o.Grad)
	spmmBack(o)
}

// checkRows panics unless rows is ascending, distinct and inside [0, n).
func checkRows(rows []int32, n int) {
	prev := int32(-1)
	for _, i := range rows {
		if i <= prev || int(i) >= n {
			panic(fmt.Sprintf("autograd: rows must be ascending, distinct and below %d (row %d after %d)", n, i, prev))
		}
		prev = i
	}
}

// gemmRows sets c = x·b on the rows of x that rows names and +0 on the
// others (gemmNonZeroRows' steps with b not transposed).
func (t *Tape) gemmRows(rows []int32, x, b, c *tensor.Dense) { t.gemmRowsOf(rows, x, b, false, c) }

// ConcatColsRows returns the concatenation [x₀ x₁ …] (ConcatCols) on the
// rows that rows names (ascending, distinct) and +0 on the others, for the
// caller of MatMulRows on those rows.
//
// Backward: each ∂xₖ += its block of columns of M·∂out, M the rows' mask,
// added as ConcatCols adds it (g + d, g first) through simd.AddScaled(g,
// d, d, 1, 1), the products by 1 exact; a ∂out holding only zeros outside
// rows is used as it is, so the gradients are ConcatCols' bit for bit
// (TestConcatColsRowsMatchesConcatCols).
func (t *Tape) ConcatColsRows(rows []int32, xs ...*Var) *Var {
	if len(xs) == 0 {
		panic("autograd: ConcatColsRows of nothing")
	}
	n, cols := xs[0].Rows(), 0
	for _, x := range xs {
		if x.Rows() != n {
			panic(fmt.Sprintf("autograd: ConcatColsRows: %s next to %d rows", x.label(), n))
		}
		cols += x.Cols()
	}
	checkRows(rows, n)
	o := t.op(t.Alloc(n, cols), nil, nil)
	o.xs, o.idx = t.keepVars(xs), rows
	t.Exec.ForArg(n, len(rows)*cols+n, o, concatColsKeptRows)
	needs := false
	for _, x := range xs {
		needs = needs || x.requiresGrad
	}
	return t.record1(o, concatColsRowsBack, needs)
}

// concatColsKeptRows writes rows [lo, hi) of ConcatColsRows' value.
func concatColsKeptRows(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, od := o.Value.Cols, o.Value.Data
	q, _ := slices.BinarySearch(o.idx, int32(lo))
	for i := lo; i < hi; i++ {
		if q == len(o.idx) || int(o.idx[q]) != i {
			clear(od[i*cols : (i+1)*cols])
			continue
		}
		q++
		off := i * cols
		for _, x := range o.xs {
			c := x.Value.Cols
			copy(od[off:off+c], x.Value.Data[i*c:(i+1)*c])
			off += c
		}
	}
}

func concatColsRowsBack(o *Var) {
	t := o.tape
	o.tape.maskRows(o.idx, o.Grad)
	from := 0
	for k, x := range o.xs {
		if x.requiresGrad {
			t.grad(x)
			o.i0, o.i1 = from, k
			t.Exec.ForArg(o.Value.Rows, o.Value.Rows*x.Value.Cols, o, concatColsRowsBackRows)
		}
		from += x.Value.Cols
	}
}

// concatColsRowsBackRows adds columns [from, from+c) of ∂out into the
// gradient of input o.i1 on rows [lo, hi) as concatColsBackRows does,
// which the compiler builds as g + d (MOVSS g; ADDSS d: g the first
// operand, whose NaN payload wins), and simd.AddScaled(g, d, d, 1, 1) too.
func concatColsRowsBackRows(arg any, lo, hi int) {
	o := arg.(*Var)
	if !simd.Enabled() {
		concatColsBackRows(arg, lo, hi)
		return
	}
	x := o.xs[o.i1]
	cols, c, from := o.Value.Cols, x.Value.Cols, o.i0
	dst, g := x.Grad.Data, o.Grad.Data
	for i := lo; i < hi; i++ {
		d := dst[i*c : (i+1)*c]
		simd.AddScaled(g[i*cols+from:i*cols+from+c], d, d, 1, 1)
	}
}
