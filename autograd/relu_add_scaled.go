package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// reluMixBlock is how many elements ReLUAddScaled treats at a time: its
// intermediate ca·a + cb·b and that sum's gradient stay in a block of the
// stack (2 × 4 KiB), in L1, instead of two buffers as large as a.
const reluMixBlock = 1024

// ReLUAddScaled returns ReLU(ca·a + cb·b) (GCNII's H⁽ˡ⁾ = ReLU(β·SW + (1−β)·S))
// with the bits of ReLU(AddScaled(a, ca, b, cb)): the same kernels block by
// block, the ReLU in place over the sum while it is in L1, so that neither
// the sum nor its gradient takes a buffer of its own, and one pass over
// memory fewer each way. The backward recomputes the sum block by block
// for ReLU's mask, gives it ReLU's gradient (+0 plus ∂out where the sum is
// positive, as ReLU's backward adds into a fresh gradient) and adds ca and
// cb times that into ∂a and ∂b as AddScaled's backward does
// (TestReLUAddScaledMatchesReLUOfAddScaled); two fresh, distinct gradients
// are written with what that addition gives on +0, not zeroed first.
//
// Backward: ∂a += ca·∂s, ∂b += cb·∂s with ∂s = ∂out where ca·a + cb·b > 0.
func (t *Tape) ReLUAddScaled(a *Var, ca float32, b *Var, cb float32) *Var {
	if a.Rows() != b.Rows() || a.Cols() != b.Cols() {
		panic(fmt.Sprintf("autograd: ReLUAddScaled %s and %s", a.label(), b.label()))
	}
	o := t.op(t.Alloc(a.Rows(), a.Cols()), a, b)
	o.p, o.p2 = ca, cb
	n := a.Value.Len()
	t.Exec.ForArg(n, 3*n, o, reluAddScaledForward)
	return t.done(o, reluAddScaledBack)
}

func reluAddScaledForward(arg any, lo, hi int) {
	o := arg.(*Var)
	a, b, out := o.in[0].Value.Data, o.in[1].Value.Data, o.Value.Data
	for s := lo; s < hi; s += reluMixBlock {
		e := min(s+reluMixBlock, hi)
		addScaledSpan(a[s:e], b[s:e], out[s:e], o.p, o.p2)
		reluForward(0, out[s:e], out[s:e])
	}
}

func reluAddScaledBack(o *Var) {
	t := o.tape
	a, b := o.in[0], o.in[1]
	// write (o.i0 = 1): both gradients fresh and distinct (GCNII's SW and
	// S), so each is what AXPY gives on +0: computed so block by block on
	// the stack and copied, instead of zeroing the buffers and adding
	o.i0 = 0
	if a != b && (!a.requiresGrad || a.Grad == nil) && (!b.requiresGrad || b.Grad == nil) {
		o.i0 = 1
	}
	for _, x := range o.in {
		if x.requiresGrad {
			if o.i0 == 1 {
				t.gradFor(x)
			} else {
				t.grad(x)
			}
		}
	}
	n := o.Value.Len()
	t.Exec.ForArg(n, 5*n, o, reluAddScaledBackward)
}

// reluAddScaledBackward runs ReLU's and then AddScaled's backward on
// elements [lo, hi), a block at a time: per element the operations and
// their order are the two ops' (∂a's term before ∂b's, as AddScaled's
// backward adds them, which matters only when a and b are one variable).
func reluAddScaledBackward(arg any, lo, hi int) {
	o := arg.(*Var)
	a, b := o.in[0], o.in[1]
	var sum, gs [reluMixBlock]float32
	for s := lo; s < hi; s += reluMixBlock {
		e := min(s+reluMixBlock, hi)
		m := e - s
		addScaledSpan(a.Value.Data[s:e], b.Value.Data[s:e], sum[:m], o.p, o.p2)
		clear(gs[:m])
		reluBackward(0, gs[:m], o.Grad.Data[s:e], sum[:m], nil)
		if a.requiresGrad {
			axpyInto(o.i0 == 1, o.p, gs[:m], a.Grad.Data[s:e], sum[:m])
		}
		if b.requiresGrad {
			axpyInto(o.i0 == 1, o.p2, gs[:m], b.Grad.Data[s:e], sum[:m])
		}
	}
}

// axpyInto adds c·g into d as axpySpan does, or with fresh, sets d to what
// that gives on +0 (computed in buf, then copied: d's old contents are
// never read).
func axpyInto(fresh bool, c float32, g, d, buf []float32) {
	if !fresh {
		axpySpan(c, g, d)
		return
	}
	clear(buf)
	axpySpan(c, g, buf)
	copy(d, buf)
}

// addScaledSpan sets out = ca·a + cb·b as AddScaled's forward does.
func addScaledSpan(a, b, out []float32, ca, cb float32) {
	if simd.Enabled() {
		simd.AddScaled(a, b, out, ca, cb)
		return
	}
	b, out = b[:len(a)], out[:len(a)]
	for i, v := range a {
		out[i] = float32(ca*v) + float32(cb*b[i])
	}
}
