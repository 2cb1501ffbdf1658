package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// SoftmaxSTE returns STE(hard, Softmax(Scale(x, c))): hard's value, with the
// gradient of softmax(c·x) flowing to x (PCGCN's straight-through
// assignment, c = 1/τ). It is that chain in one operation, with the chain's
// floating-point operations forward and backward: Scale's loop into the
// softmax's buffer, SoftmaxRows in place (the bits of out of place), and
// per span of rows STE's ∂soft = 1·∂out + 0 (AXPY onto +0), Softmax's
// backward onto +0 and Scale's ∂x += c·∂; so the bits are the chain's. What
// it saves is two n×c gradient buffers and their zeroing, Scale's value,
// two operations' hand-offs, and, when nothing needs x's gradient (an
// evaluation), the softmax itself, which the value never shows. hard must
// have x's shape and is used as it is (shared, not copied).
//
// Builds without the vector kernels, or whose compiler fuses a·b+c in Go,
// record the three operations instead.
//
// Backward: ∂x += c·(y ⊙ (∂out − ⟨y, ∂out⟩)) row by row, y = softmax(c·x).
func (t *Tape) SoftmaxSTE(hard, x *Var, c float32) *Var {
	if hard.Rows() != x.Rows() || hard.Cols() != x.Cols() {
		panic(fmt.Sprintf("autograd: SoftmaxSTE of %s on %s (want one shape)", hard.label(), x.label()))
	}
	rows, cols := x.Rows(), x.Cols()
	if !simd.Enabled() || goFusesFMA || cols == 0 || cols > softmaxSTESpan {
		return t.STE(hard, t.Softmax(t.Scale(x, c)))
	}
	o := t.op(hard.Value, x, nil)
	if t.noGrad || !x.requiresGrad {
		return o // a constant: hard's value, and no gradient to give x
	}
	o.p = c
	y := t.Alloc(rows, cols)
	o.aux = y
	if cols <= 8 {
		// Scale and the softmax's narrow-row kernels in one loop
		t.Exec.ForArg(rows, 9*rows*cols, o, softmaxSTEForward)
		return t.done(o, softmaxSTEBack)
	}
	t.Exec.ForArg(rows, rows*cols, o, softmaxSTEScale)
	tensor.SoftmaxRows(t.Exec, y, y)
	return t.done(o, softmaxSTEBack)
}

// softmaxSTEBlock is how many floats softmaxSTEForward takes at a time, as
// tensor.SoftmaxRows takes them through one exponential call (8 KiB).
const softmaxSTEBlock = 2048

// softmaxSTEForward computes rows [lo, hi) of softmax(c·x) (rows of at most
// 8 columns) a block of rows at a time, while the block is in L1: Scale's
// loop into the softmax's buffer, then the kernels of tensor.SoftmaxRows
// in place on narrow rows (simd.SoftmaxShiftRows, tensor.ExpNonPosSlice),
// its normalisation four rows at a time (simd.SoftmaxNormRows4, the bits
// of simd.SoftmaxNormRows). Every element's operations are those of Scale
// then SoftmaxRows (TestSoftmaxSTEMatchesChain).
func softmaxSTEForward(arg any, lo, hi int) {
	o := arg.(*Var)
	cols := o.aux.Cols
	per := max(1, softmaxSTEBlock/cols)
	x, y := o.in[0].Value.Data, o.aux.Data
	for r0 := lo; r0 < hi; r0 += per {
		r1 := min(r0+per, hi)
		yb := y[r0*cols : r1*cols]
		scaleForward(o.p, yb, x[r0*cols:r1*cols])
		simd.SoftmaxShiftRows(yb, cols, yb)
		tensor.ExpNonPosSlice(yb)
		simd.SoftmaxNormRows4(yb, cols)
	}
}

// softmaxSTESpan is how many elements softmaxSTEBackward takes at a time
// through its scratch arrays (on the goroutine's stack); rows wider than
// that keep the three operations.
const softmaxSTESpan = 512

// softmaxSTEScale writes rows [lo, hi) of c·x into the softmax's buffer
// (Scale's forward loop).
func softmaxSTEScale(arg any, lo, hi int) {
	o := arg.(*Var)
	cols := o.aux.Cols
	scaleForward(o.p, o.aux.Data[lo*cols:hi*cols], o.in[0].Value.Data[lo*cols:hi*cols])
}

func softmaxSTEBack(o *Var) {
	t := o.tape
	// a first ∂x (PCGCN's S̃) is not zeroed by the tape: each span clears
	// its rows just before adding into them, while they are in L1
	_, beta := t.gradFor(o.in[0])
	o.i0 = int(beta)
	rows, cols := o.aux.Rows, o.aux.Cols
	t.Exec.ForArg(rows, 4*rows*cols, o, softmaxSTEBackward)
}

// softmaxSTEBackward runs rows [lo, hi) of the chain's backward steps in its
// order, a span of whole rows at a time: STE's (∂soft = 1·∂out onto +0),
// Softmax's (∂scaled = y ⊙ (∂soft − ⟨y, ∂soft⟩) onto +0) and Scale's
// (∂x += c·∂scaled).
func softmaxSTEBackward(arg any, lo, hi int) {
	o := arg.(*Var)
	cols := o.aux.Cols
	per := softmaxSTESpan / cols
	y, g, gx := o.aux.Data, o.Grad.Data, o.in[0].Grad.Data
	var gs, gz [softmaxSTESpan]float32
	for r0 := lo; r0 < hi; r0 += per {
		r1 := min(r0+per, hi)
		e0, e1 := r0*cols, r1*cols
		s, z := gs[:e1-e0], gz[:e1-e0]
		clear(s)
		axpySpan(1, g[e0:e1], s)
		clear(z)
		softmaxBackSpan(cols, y[e0:e1], s, z)
		if o.i0 == 0 {
			clear(gx[e0:e1]) // a first ∂x: the zeros Tape.grad would have written
		}
		scaleBackward(o.p, gx[e0:e1], z, nil, nil)
	}
}
