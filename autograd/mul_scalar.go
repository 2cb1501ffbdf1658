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
	c := o.in[1].Value.Data[0]
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
