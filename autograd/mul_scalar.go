package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// MulScalar returns x·s for a 1×1 variable s: Mul(x, s), whose scalar
// broadcast forward is a scalar Go loop (y = v·c), through simd.MulVec
// against a block of c on the stack (v·c, v the first operand, as the
// loop), and Mul's own backward (TestMulScalarMatchesMul). GGCN scales
// every layer's terms by learnt scalars (the mix coefficients, the degree
// slope, the layer's scale): 6% of a Wisconsin epoch's instructions were
// that loop.
//
// Backward: ∂x += ∂out·s; ∂s += Σ ∂out ⊙ x.
func (t *Tape) MulScalar(x, s *Var) *Var {
	if s.Rows() != 1 || s.Cols() != 1 {
		panic(fmt.Sprintf("autograd: MulScalar by %s, not 1×1", s.label()))
	}
	rows, cols := x.Rows(), x.Cols()
	o := t.op(t.Alloc(rows, cols), x, s)
	o.kind = bcScalar
	n := x.Value.Len()
	t.Exec.ForArg(n, n, o, mulScalarForward)
	return t.done(o, mulBack)
}

func mulScalarForward(arg any, lo, hi int) {
	o := arg.(*Var)
	c := o.in[1].Value.Data[o.i0] // o.i0: MulScalarCol's column, 0 for MulScalar
	x, y := o.in[0].Value.Data[lo:hi], o.Value.Data[lo:hi]
	if !simd.Enabled() {
		mulSpanGo(c, nil, x, y, false)
		return
	}
	var cs [reluMixBlock]float32
	w := min(len(x), reluMixBlock)
	for i := range cs[:w] {
		cs[i] = c
	}
	for s := 0; s < len(x); s += reluMixBlock {
		e := min(s+reluMixBlock, len(x))
		simd.MulVec(x[s:e], cs[:e-s], y[s:e], false)
	}
}

// MulScalarCol returns x·c[0,k] for a 1×m row c: MulScalar(x, SliceCols(c,
// k, k+1)) without the slice (GGCN's mix coefficients, three a layer): the
// same forward, and a backward that runs the two operations' own steps on
// the factor's gradient (Mul's scalar reduction into a fresh 1×1, then
// SliceCols' addition into ∂c) (TestMulScalarColMatchesSliceThenMul).
//
// Backward: ∂x += ∂out·c[0,k]; ∂c[0,k] += Σ ∂out ⊙ x.
func (t *Tape) MulScalarCol(x, c *Var, k int) *Var {
	if c.Rows() != 1 || k < 0 || k >= c.Cols() {
		panic(fmt.Sprintf("autograd: MulScalarCol by column %d of %s", k, c.label()))
	}
	rows, cols := x.Rows(), x.Cols()
	o := t.op(t.Alloc(rows, cols), x, c)
	o.kind, o.i0 = bcScalar, k
	n := x.Value.Len()
	t.Exec.ForArg(n, n, o, mulScalarForward)
	return t.done(o, mulScalarColBack)
}

func mulScalarColBack(o *Var) {
	t, x, c := o.tape, o.in[0], o.in[1]
	if x.requiresGrad {
		t.grad(x)
		t.Exec.ForArg(o.Value.Rows, o.Value.Len(), o, mulScalarColBackX)
	}
	if c.requiresGrad {
		s := t.AllocZero(1, 1) // the slice's fresh gradient
		t.reduceInto(bcScalar, o.Grad, s, x.Value.Data, 1)
		t.grad(c)
		sl := Var{Value: t.view(1, 1, nil), Grad: s, i0: o.i0, i1: o.i0 + 1}
		sl.in[0] = c
		sliceColsBackRows(&sl, 0, 1)
		t.giveBack(s)
	}
}

// mulScalarColBackX adds ∂out·c[0,k] into ∂x on rows [lo, hi), mulBackA's
// loop with the factor read from its column.
func mulScalarColBackX(arg any, lo, hi int) {
	o := arg.(*Var)
	mulRows(bcScalar, o.in[1].Value.Data[o.i0:], o.Grad.Data, o.in[0].Grad.Data, lo, hi, o.Value.Cols, true)
}
