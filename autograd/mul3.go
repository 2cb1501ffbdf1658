package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/tensor"
)

// MulConstMul returns (a ⊙ k) ⊙ b for a constant k (no gradient) and a, b
// of k's shape: Mul(Mul(a, Const(k)), b) (GGCN's cosine ⊙ Â ⊙ τ over the
// edges) in one operation, with their bits: the products are Mul's
// kernels block by block on the stack (a ⊙ k recomputed in backward), and
// the gradients Mul's steps in Mul's order: ∂(a⊙k) = ∂out ⊙ b into a fresh
// block, ∂b += (1·∂out)·(a⊙k) (reduceSame), ∂a += ∂(a⊙k) ⊙ k
// (TestMulConstMulMatchesTwoMuls).
//
// Backward: ∂a += ∂out ⊙ b ⊙ k; ∂b += ∂out ⊙ a ⊙ k.
func (t *Tape) MulConstMul(a *Var, k *tensor.Dense, b *Var) *Var {
	if a.Rows() != b.Rows() || a.Cols() != b.Cols() || k.Rows != a.Rows() || k.Cols != a.Cols() {
		panic(fmt.Sprintf("autograd: MulConstMul %s, %s, %s", a.label(), k.Shape(), b.label()))
	}
	o := t.op(t.Alloc(a.Rows(), a.Cols()), a, b)
	o.aux = k
	n := a.Value.Len()
	t.Exec.ForArg(n, 2*n, o, mulConstMulForward)
	return t.done(o, mulConstMulBack)
}

// mulSame sets (or with acc adds) x ⊙ y into out as Mul's same-shape
// kernel does (mulSpan).
func mulSame(x, y, out []float32, acc bool) { mulSpan(0, y, x, out, acc) }

func mulConstMulForward(arg any, lo, hi int) {
	o := arg.(*Var)
	a, b, k, out := o.in[0].Value.Data, o.in[1].Value.Data, o.aux.Data, o.Value.Data
	var ak [reluMixBlock]float32
	for s := lo; s < hi; s += reluMixBlock {
		e := min(s+reluMixBlock, hi)
		mulSame(a[s:e], k[s:e], ak[:e-s], false)
		mulSame(ak[:e-s], b[s:e], out[s:e], false)
	}
}

func mulConstMulBack(o *Var) {
	t, a, b := o.tape, o.in[0], o.in[1]
	if b.requiresGrad {
		t.grad(b)
	}
	if a.requiresGrad {
		t.grad(a)
	}
	n := o.Value.Len()
	t.Exec.ForArg(n, 4*n, o, mulConstMulBackward)
}

func mulConstMulBackward(arg any, lo, hi int) {
	o := arg.(*Var)
	a, b, k, g := o.in[0], o.in[1], o.aux.Data, o.Grad.Data
	var ak, gak [reluMixBlock]float32
	for s := lo; s < hi; s += reluMixBlock {
		e := min(s+reluMixBlock, hi)
		m := e - s
		mulSame(a.Value.Data[s:e], k[s:e], ak[:m], false)
		if a.requiresGrad {
			clear(gak[:m])
			mulSame(g[s:e], b.Value.Data[s:e], gak[:m], true)
			mulSame(gak[:m], k[s:e], a.Grad.Data[s:e], true)
		}
		if b.requiresGrad {
			gd := tensor.Dense{Rows: 1, Cols: m, Data: g[s:e]}
			bd := tensor.Dense{Rows: 1, Cols: m, Data: b.Grad.Data[s:e]}
			r := reduction{g: &gd, gb: &bd, mul: ak[:m], sign: 1}
			reduceSame(&r, 0, m)
		}
	}
}
