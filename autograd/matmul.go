package autograd

import (
	"fmt"
	"math"

	"github.com/pcgcn/pcgcn/internal/simd"

	"github.com/pcgcn/pcgcn/tensor"
)

// MatMul returns a·b.
//
// Backward: ∂a += ∂out·bᵀ, ∂b += aᵀ·∂out.
func (t *Tape) MatMul(a, b *Var) *Var {
	if a.Cols() != b.Rows() {
		panic(fmt.Sprintf("autograd: MatMul %s · %s", a.label(), b.label()))
	}
	o := t.op(t.Alloc(a.Rows(), b.Cols()), a, b)
	tensor.Gemm(t.Exec, false, false, 1, a.Value, b.Value, 0, o.Value)
	return t.done(o, matMulBack)
}

func matMulBack(o *Var) {
	t, a, b := o.tape, o.in[0], o.in[1]
	// ∂out's non-zero rows when at least an eighth are zeros (see
	// gemmNonZeroRows), else ok is false
	rows, ok := t.nonZeroRowsOf(o.Grad)
	if a.requiresGrad {
		g, beta := t.gradFor(a)
		if beta == 0 && ok {
			t.gemmNonZeroRows(rows, o.Grad, b.Value, g)
		} else {
			tensor.Gemm(t.Exec, false, true, 1, o.Grad, b.Value, beta, g)
		}
	}
	if b.requiresGrad {
		g, beta := t.gradFor(b)
		if ok && simd.Enabled() { // the portable loops fold no blocks
			t.gemmTransANonZeroRows(rows, a.Value, o.Grad, beta, g)
		} else {
			tensor.Gemm(t.Exec, true, false, 1, a.Value, o.Grad, beta, g)
		}
	}
}

// nonZeroRowsOf returns the non-zero rows of x and true when x is large
// enough for leaving rows out to pay and at least an eighth of its rows are
// zeros (of either sign).
func (t *Tape) nonZeroRowsOf(x *tensor.Dense) ([]int32, bool) {
	m := x.Rows
	if m < 64 || x.Cols < 16 {
		return nil, false
	}
	return t.nonZeroRows(x, m-m/8)
}

// gemmTransANonZeroRows sets c = xᵀ·g + beta·c over the rows of x and g
// that rows names (g's non-zero rows): the inner index runs over the rows,
// so the zero rows of g are zero terms of every chain, and each block of
// tensor.GemmBlockK inner indices is multiplied on its own over its
// non-zero rows, gathered, and folded into c as Gemm folds it (beta for
// the first block, then 1); a block without non-zero rows folds +0, as
// Gemm's tiles do. A zero term leaves a fused multiply-add chain as it is
// (fma(a, ±0, acc) = acc for finite a, acc not −0), so the bits are the
// whole product's, but for what Gemm's sparse-left path also gives up: a
// chain at −0 from an underflow, and infinities or NaNs in x meeting the
// zeros (TestMatMulZeroRowsMatchesGemm).
func (t *Tape) gemmTransANonZeroRows(rows []int32, x, g *tensor.Dense, beta float32, c *tensor.Dense) {
	kb := tensor.GemmBlockK
	q := 0
	for k0 := 0; k0 < x.Rows; k0 += kb {
		q0 := q
		for q < len(rows) && int(rows[q]) < k0+kb {
			q++
		}
		if q == q0 {
			foldEmptyBlock(c, beta)
		} else {
			sub := rows[q0:q]
			xs, gs := t.Alloc(len(sub), x.Cols), t.Alloc(len(sub), g.Cols)
			t.rowArgs = rowCopy{rows: sub, from: x, to: xs}
			t.Exec.ForArg(len(sub), len(sub)*x.Cols, &t.rowArgs, gatherRowsInto)
			t.rowArgs = rowCopy{rows: sub, from: g, to: gs}
			t.Exec.ForArg(len(sub), len(sub)*g.Cols, &t.rowArgs, gatherRowsInto)
			t.rowArgs = rowCopy{}
			tensor.Gemm(t.Exec, true, false, 1, xs, gs, beta, c)
			t.giveBack(gs)
			t.giveBack(xs)
		}
		beta = 1
	}
}

// gemmNonZeroRows sets c = x·bᵀ (c's old contents ignored) computing only
// rows, x's rows that are not all zeros (nonZeroRowsOf: when at least an
// eighth are zeros, such as the rows of the nodes outside the loss, whose
// gradient is zero through an MLP such as LINKX's): those rows are
// gathered and multiplied, and c's other rows are +0. Each element of a row computed is its own chain over b's columns,
// whatever the other rows, so the bits are the product's; a zero row gives
// +0 in the tiles too (an accumulator of zero terms folded into +0), unless
// b holds an infinity or a NaN, which a weight does not
// (TestMatMulZeroRowsMatchesGemm).
func (t *Tape) gemmNonZeroRows(rows []int32, x, b, c *tensor.Dense) {
	t.gemmRowsOf(rows, x, b, true, c)
}

// gemmRowsOf sets c = x·op(b) (op(b) = bᵀ with transB) on the rows of x
// that rows names (ascending, distinct) and +0 on the others: those rows
// gathered, multiplied by tensor.Gemm and scattered.
func (t *Tape) gemmRowsOf(rows []int32, x, b *tensor.Dense, transB bool, c *tensor.Dense) {
	k := x.Cols
	nz := len(rows)
	if nz == 0 {
		clear(c.Data)
		return
	}
	xs, cs := t.Alloc(nz, k), t.Alloc(nz, c.Cols)
	t.rowArgs = rowCopy{rows: rows, from: x, to: xs}
	t.Exec.ForArg(nz, nz*k, &t.rowArgs, gatherRowsInto)
	tensor.Gemm(t.Exec, false, transB, 1, xs, b, 0, cs)
	n, next := c.Cols, 0 // +0 in the rows left out only
	for _, i := range rows {
		clear(c.Data[next*n : int(i)*n])
		next = int(i) + 1
	}
	clear(c.Data[next*n:])
	t.rowArgs = rowCopy{rows: rows, from: cs, to: c}
	t.Exec.ForArg(nz, nz*c.Cols, &t.rowArgs, scatterRowsInto)
	t.rowArgs = rowCopy{}
	t.giveBack(cs)
	t.giveBack(xs)
}

// nonZeroRows returns the indices of x's rows holding a non-zero (of either
// sign), in the tape's scratch, or false as soon as there are more than
// most.
// With the vector kernels, simd.NonZeroRowList scans the whole matrix in
// one call, eight elements a test, so a zero row costs k/8 tests instead of
// k compared elements and a dense row one test (TestNonZeroRowsVectorMatchesGo).
func (t *Tape) nonZeroRows(x *tensor.Dense, most int) ([]int32, bool) {
	if simd.Enabled() && x.Cols > 0 {
		if cap(t.i32) < most {
			t.i32 = make([]int32, 0, most)
		}
		n := simd.NonZeroRowList(x.Data[:x.Rows*x.Cols], x.Cols, most, t.i32[:most])
		if n < 0 {
			return nil, false
		}
		t.i32 = t.i32[:n]
		return t.i32, true
	}
	return t.nonZeroRowsGo(x, most)
}

// nonZeroRowsGo is nonZeroRows's portable loop.
func (t *Tape) nonZeroRowsGo(x *tensor.Dense, most int) ([]int32, bool) {
	k := x.Cols
	rows := t.i32[:0]
	for i := 0; i < x.Rows; i++ {
		for _, v := range x.Data[i*k : (i+1)*k] {
			if math.Float32bits(v)&0x7fffffff != 0 {
				if len(rows) == most {
					t.i32 = rows
					return nil, false
				}
				rows = append(rows, int32(i))
				break
			}
		}
	}
	t.i32 = rows
	return rows, true
}

// rowCopy holds the operands of a row gather or scatter (see
// gemmNonZeroRows): rows of from to to, or back.
type rowCopy struct {
	rows     []int32
	from, to *tensor.Dense
}

// gatherRowsInto copies rows rows[lo:hi] of from into rows lo..hi-1 of to.
func gatherRowsInto(arg any, lo, hi int) {
	r := arg.(*rowCopy)
	k := r.from.Cols
	for q := lo; q < hi; q++ {
		i := int(r.rows[q])
		copy(r.to.Data[q*k:(q+1)*k], r.from.Data[i*k:(i+1)*k])
	}
}

// scatterRowsInto copies rows lo..hi-1 of from into rows rows[lo:hi] of to.
func scatterRowsInto(arg any, lo, hi int) {
	r := arg.(*rowCopy)
	n := r.from.Cols
	for q := lo; q < hi; q++ {
		i := int(r.rows[q])
		copy(r.to.Data[i*n:(i+1)*n], r.from.Data[q*n:(q+1)*n])
	}
}

// foldEmptyBlock is what a block of inner indices with no non-zero row of
// ∂out adds to c = beta·c + Σ blocks: c scaled by beta (cleared for 0),
// then +0 added, the fold of an all-zero chain, which turns −0 into +0.
func foldEmptyBlock(c *tensor.Dense, beta float32) {
	if beta == 0 {
		clear(c.Data)
	} else if beta != 1 {
		for i := range c.Data {
			c.Data[i] *= beta
		}
	}
	for i, v := range c.Data {
		c.Data[i] = 0 + v
	}
}
