package autograd

import (
	"fmt"
	"math"

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
	if a.requiresGrad {
		g, beta := t.gradFor(a)
		if beta != 0 || !t.gemmNonZeroRows(o.Grad, b.Value, g) {
			tensor.Gemm(t.Exec, false, true, 1, o.Grad, b.Value, beta, g)
		}
	}
	if b.requiresGrad {
		g, beta := t.gradFor(b)
		tensor.Gemm(t.Exec, true, false, 1, a.Value, o.Grad, beta, g)
	}
}

// gemmNonZeroRows sets c = x·bᵀ (c's old contents ignored) computing only
// x's rows that are not all zeros, and reports whether it did: when at least
// an eighth of x's rows are zeros (the rows of the nodes outside the loss,
// whose gradient is zero through an MLP such as LINKX's), those rows are
// left out of a product over the others, gathered, and c's rows are +0
// there. Each element of a row computed is its own chain over b's columns,
// whatever the other rows, so the bits are the product's; a zero row gives
// +0 in the tiles too (an accumulator of zero terms folded into +0), unless
// b holds an infinity or a NaN, which a weight does not
// (TestMatMulZeroRowsMatchesGemm).
func (t *Tape) gemmNonZeroRows(x, b, c *tensor.Dense) bool {
	m, k := x.Rows, x.Cols
	if m < 64 || k < 16 {
		return false
	}
	rows, ok := t.nonZeroRows(x, m-m/8)
	if !ok {
		return false
	}
	nz := len(rows)
	if nz == 0 {
		clear(c.Data)
		return true
	}
	xs, cs := t.Alloc(nz, k), t.Alloc(nz, c.Cols)
	t.rowArgs = rowCopy{rows: rows, from: x, to: xs}
	t.Exec.ForArg(nz, nz*k, &t.rowArgs, gatherRowsInto)
	tensor.Gemm(t.Exec, false, true, 1, xs, b, 0, cs)
	clear(c.Data)
	t.rowArgs = rowCopy{rows: rows, from: cs, to: c}
	t.Exec.ForArg(nz, nz*c.Cols, &t.rowArgs, scatterRowsInto)
	t.rowArgs = rowCopy{}
	t.giveBack(cs)
	t.giveBack(xs)
	return true
}

// nonZeroRows returns the indices of x's rows holding a non-zero (of either
// sign), in the tape's scratch, or false as soon as there are more than
// most.
func (t *Tape) nonZeroRows(x *tensor.Dense, most int) ([]int32, bool) {
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
