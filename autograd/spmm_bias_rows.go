package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// SpMMBiasRows returns a·x + bias on the rows k keeps and +0 on the others
// (bias a 1×cols row): LINKX's h_A = A·W_A + b_A and h_X = X·W_X + b_X in a
// training step, the bits of AddBiasRows(rows, SpMMRows(k, x), bias) in
// one n-row buffer instead of two: the bias is added in place with Add's
// kernel (TestSpMMBiasRowsMatchesTwoOps).
//
// Backward: ∂out masked to the rows (maskRows), the bias's column sums of
// it (Add's broadcast gradient), then ∂out turned in place into what
// AddBiasRows gave SpMMRows (+0 + ∂out on the kept rows: −0 becomes +0, a
// signalling NaN quiet; +0 on the others) and SpMMRows' backward on it:
// no fresh n-row gradient zeroed and added into. Without the vector
// kernels, or with Go's fused multiply-adds, it records the two operations.
func (t *Tape) SpMMBiasRows(k *KeptRows, x, bias *Var) *Var {
	a := k.a
	if a.Cols != x.Rows() {
		panic(fmt.Sprintf("autograd: SpMMBiasRows %s · %s", a.Shape(), x.label()))
	}
	if bias.Rows() != 1 || bias.Cols() != x.Cols() {
		panic(fmt.Sprintf("autograd: SpMMBiasRows: bias %s for %d columns", bias.label(), x.Cols()))
	}
	if !simd.Enabled() || goFusesFMA {
		p := t.SpMMRows(k, x)
		out := t.AddBiasRows(k.rows, p, bias)
		t.Release(p)
		return out
	}
	o := t.op(t.Alloc(a.Rows, x.Cols()), x, bias)
	o.idx = k.rows
	tensor.SpMM(t.Exec, 1, k.kept, x.Value, 0, o.Value)
	o.csr, o.p = a, 0
	if k.unit {
		o.csr, o.p = k.kept, 1
	}
	t.Exec.ForArg(a.Rows, len(k.rows)*x.Cols()+a.Rows, o, spmmBiasRowsForward)
	return t.done(o, spmmBiasRowsBack)
}

// spmmBiasRowsForward adds the bias in place on the kept rows of [lo, hi)
// (addSpan, AddBiasRows' addition) and sets the others to +0.
func spmmBiasRowsForward(arg any, lo, hi int) {
	o := arg.(*Var)
	cols := o.Value.Cols
	bias := o.in[1].Value.Data[:cols]
	keptRowsIn(o.idx, o.Value.Data, cols, lo, hi, func(_, _ int, out []float32) {
		addSpan(out, bias, out, bcRow)
	})
}

func spmmBiasRowsBack(o *Var) {
	t, x, bias := o.tape, o.in[0], o.in[1]
	t.maskRows(o.idx, o.Grad)
	if bias.requiresGrad {
		t.reduceInto(bcRow, o.Grad, t.grad(bias), nil, 1)
	}
	if !x.requiresGrad {
		return
	}
	t.Exec.ForArg(o.Value.Rows, o.Value.Len(), o, spmmBiasRowsGrad)
	spmmBack(o)
}

// spmmBiasRowsGrad sets ∂out to what AddBiasRows gives a fresh ∂p on rows
// [lo, hi): +0 + ∂out on the kept rows, and, for a product over a (not
// keptᵀ, whose rows left out are empty and never read), +0 on the others.
func spmmBiasRowsGrad(arg any, lo, hi int) {
	o := arg.(*Var)
	cols := o.Value.Cols
	g := o.Grad.Data
	q := searchRow(o.idx, lo)
	for i := lo; i < hi; i++ {
		d := g[i*cols : (i+1)*cols]
		if q == len(o.idx) || int(o.idx[q]) != i {
			if o.p == 0 {
				clear(d)
			}
			continue
		}
		q++
		plusZero(d)
	}
}
