package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// AddScaled returns ca·a + cb·b for a and b of the same shape and constants
// ca, cb: one operation (and one intermediate buffer) instead of two Scale
// and an Add, with the same float32 rounding (each product rounded, then the
// sum, by construction: the float32 conversions keep the compiler from
// fusing a product into the add where it fuses multiply-adds, on arm64 for
// one). Deep models that mix states this way every layer (GCNII's initial
// residual and identity mapping) keep a third fewer activations.
//
// Backward: ∂a += ca·∂out, ∂b += cb·∂out.
func (t *Tape) AddScaled(a *Var, ca float32, b *Var, cb float32) *Var {
	if a.Rows() != b.Rows() || a.Cols() != b.Cols() {
		panic(fmt.Sprintf("autograd: AddScaled %s and %s", a.label(), b.label()))
	}
	o := t.op(t.Alloc(a.Rows(), a.Cols()), a, b)
	o.p, o.p2 = ca, cb
	n := a.Value.Len()
	t.Exec.ForArg(n, 2*n, o, addScaledForward)
	return t.done(o, addScaledBack)
}

// addScaledForward takes the vector kernel when there is one (simd.AddScaled:
// the bits of addScaledForwardGo, whose explicit conversions keep every
// build from fusing).
func addScaledForward(arg any, lo, hi int) {
	o := arg.(*Var)
	if simd.Enabled() {
		simd.AddScaled(o.in[0].Value.Data[lo:hi], o.in[1].Value.Data[lo:hi], o.Value.Data[lo:hi], o.p, o.p2)
		return
	}
	addScaledForwardGo(o, lo, hi)
}

func addScaledForwardGo(o *Var, lo, hi int) {
	ad, bd, od := o.in[0].Value.Data[lo:hi], o.in[1].Value.Data[lo:hi], o.Value.Data[lo:hi]
	bd = bd[:len(ad)]
	od = od[:len(ad)]
	for i, v := range ad {
		od[i] = float32(o.p*v) + float32(o.p2*bd[i])
	}
}

func addScaledBack(o *Var) {
	t := o.tape
	for k, x := range o.in {
		if x.requiresGrad {
			t.grad(x)
			o.i1 = k
			n := o.Value.Len()
			t.Exec.ForArg(n, n, o, addScaledBackward)
		}
	}
}

// addScaledBackward adds c·∂out into the gradient of input o.i1, through
// the vector kernel (simd.AXPY) where it gives the Go loop's bits: at the
// default GOAMD64 level, which does not fuse the loop's c·g + gx.
func addScaledBackward(arg any, lo, hi int) {
	o := arg.(*Var)
	c := o.p
	if o.i1 == 1 {
		c = o.p2
	}
	gx, gy := o.in[o.i1].Grad.Data[lo:hi], o.Grad.Data[lo:hi]
	gx = gx[:len(gy)]
	if simd.Enabled() && !goFusesFMA {
		simd.AXPY(c, gy, gx)
		return
	}
	axpyGo(c, gy, gx)
}

// axpyGo sets gx += c·gy in Go, the definition simd.AXPY follows.
func axpyGo(c float32, gy, gx []float32) {
	gx = gx[:len(gy)]
	for i, g := range gy {
		gx[i] += c * g
	}
}

// axpySpan sets gx += c·gy over one span, as AddScaled's backward does (and
// Add's and Sub's same-shape gradients with c = ±1): through simd.AXPY where
// it computes what this package's Go loop does (no fused multiply-add),
// else that loop.
func axpySpan(c float32, gy, gx []float32) {
	if simd.Enabled() && !goFusesFMA {
		simd.AXPY(c, gy, gx[:len(gy)])
		return
	}
	axpyGo(c, gy, gx)
}
