package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// ReLUAddScaledSubDropout returns Dropout(ReLUAddScaledSub(x, a, b, m, c), p)
// and the update before dropout, h = ReLUAddScaledSub(x, a, b, m, c):
// PCGCN's layer update followed by the dropout of the next layer's (or the
// classifier's) input, in one operation when the tape trains with the
// vector kernels and keeps dropout's mask (see Dropout): each span of a few
// thousand elements gets its update and then its dropout while it is in
// L1, and the backward step turns ∂out into ∂h a span at a time on the
// stack and runs the update's backward from there, so the n×d gradient ∂h
// is never written nor read back, and one operation and its hand-off go.
// The mask is drawn where Dropout would draw it, and every element's chain
// of float32 operations is the two operations', so out, h and every
// gradient have their bits (TestReLUAddScaledSubDropoutMatchesChain).
//
// In the fused form h is a value only: it needs no gradient, and a
// gradient given to it is not passed on (Output.Embedding reads it; the
// loss must reach the update through out). Otherwise (evaluation, p = 0
// or 1, no gradient to give, or no vector kernels) the two operations are
// recorded as they are, and h is ReLUAddScaledSub's output.
func (t *Tape) ReLUAddScaledSubDropout(x, a, b *Var, m *tensor.Dense, c float32, p float64) (out, h *Var) {
	needs := x.requiresGrad || a.requiresGrad || b.requiresGrad
	if !t.Training || p <= 0 || p >= 1 || !simd.Enabled() || t.noGrad || !needs {
		h = t.ReLUAddScaledSub(x, a, b, m, c)
		return t.Dropout(h, p), h
	}
	rows, cols := x.Rows(), x.Cols()
	for _, v := range []*Var{a, b} {
		if v.Rows() != rows || v.Cols() != cols {
			panic(fmt.Sprintf("autograd: ReLUAddScaledSubDropout of %s with %s", x.label(), v.label()))
		}
	}
	if m != nil && (m.Rows != rows || m.Cols != 1) {
		panic(fmt.Sprintf("autograd: ReLUAddScaledSubDropout mask %s for %d rows", m.Shape(), rows))
	}
	hv := t.Alloc(rows, cols)
	o := t.op(t.Alloc(rows, cols), a, b)
	if x.Value.Data == nil && rows*cols > 0 {
		panic(fmt.Sprintf("autograd: %s was released (Tape.Release) and cannot be an operation's input", x.label()))
	}
	o.xs = t.keepVars([]*Var{x})
	o.aux, o.aux2, o.p = m, hv, c
	n := rows * cols
	o.mask = t.newMask(p)
	o.mask.bits = t.masks.take((n + 15) / 16)
	t.holdBytes(2 * int64(len(o.mask.bits))) // until Reset rewinds the arena
	o.mask.inner = t.masks.innerTable(n / 4)
	// the work of ReLUAddScaledSub's loop alone (Dropout's is less), so that
	// a small graph's update stays on one goroutine as the two operations
	// did, with no hand-off
	t.Exec.ForArg((n+15)/16, 5*n, o, rasdForward)
	return t.record1(o, rasdBack, true), t.newVar(hv)
}

// rasdSpan is how many elements ReLUAddScaledSubDropout's loops take at a
// time (a multiple of dropout's blocks of sixteen): its forward's h and its
// backward's ∂h on the stack, 8 KiB, stay in L1 between the two kernels.
const rasdSpan = 2048

// rasdForward computes the blocks of sixteen elements [lo, hi): a span at
// a time, the update into h (reluAddScaledSubForward's kernel calls, rows
// cut at the span's ends), then dropout's kernels from h into out with the
// kept bits (dropMask.setRangeBits).
func rasdForward(arg any, lo, hi int) {
	o := arg.(*Var)
	n := o.Value.Len()
	for b0 := lo; b0 < hi; b0 += rasdSpan / 16 {
		b1 := min(b0+rasdSpan/16, hi)
		rasdUpdate(o, 16*b0, min(16*b1, n))
		o.mask.setRangeBits(o.aux2.Data, o.Value.Data, b0, b1)
	}
}

// rasdUpdate writes ReLUAddScaledSub's forward of elements [s, e) into h
// (o.aux2), with simd.ReLUAddScaledSub as reluAddScaledSubForward calls it:
// in one piece without a mask, else a row (or the part of a row in the
// span) at a time with the row's mask entry.
func rasdUpdate(o *Var, s, e int) {
	cols, c := o.Value.Cols, o.p
	xd, ad, bd, hd := o.xs[0].Value.Data, o.in[0].Value.Data, o.in[1].Value.Data, o.aux2.Data
	if o.aux == nil {
		simd.ReLUAddScaledSub(xd[s:e], ad[s:e], bd[s:e], hd[s:e], c, 1)
		return
	}
	for p := s; p < e; {
		i := p / cols
		q := min((i+1)*cols, e)
		simd.ReLUAddScaledSub(xd[p:q], ad[p:q], bd[p:q], hd[p:q], c, o.aux.Data[i])
		p = q
	}
}

// rasdBack runs the backward over the blocks, the gradients that are first
// here (o.i0's bits, as in reluAddScaledSubBack) written onto +0 by the
// kernel without a zeroing pass.
func rasdBack(o *Var) {
	t := o.tape
	o.i0 = 0
	for i, v := range []*Var{o.xs[0], o.in[0], o.in[1]} {
		if !v.requiresGrad {
			continue
		}
		if _, beta := t.gradFor(v); beta == 0 {
			o.i0 |= 1 << i
		}
	}
	n := o.Value.Len()
	t.Exec.ForArg((n+15)/16, 4*n, o, rasdBackward) // as ReLUAddScaledSub's backward
}

// rasdBackward runs the backward of the blocks [lo, hi), a span at a time:
// dropout's backward from ∂out onto +0 into ∂h on the stack (as
// dropMask.backRangeBits with first: ∂h is first there, since h reaches
// nothing else), then the update's backward from ∂h
// (reluAddScaledSubBackwardRows' kernel calls, rows cut at the span's
// ends).
func rasdBackward(arg any, lo, hi int) {
	o := arg.(*Var)
	n, cols, c := o.Value.Len(), o.Value.Cols, o.p
	x, a, b := o.xs[0], o.in[0], o.in[1]
	grad := func(v *Var, s, e int) []float32 {
		if !v.requiresGrad {
			return nil
		}
		return v.Grad.Data[s:e]
	}
	var buf [rasdSpan]float32
	for b0 := lo; b0 < hi; b0 += rasdSpan / 16 {
		b1 := min(b0+rasdSpan/16, hi)
		s, e := 16*b0, min(16*b1, n)
		gh := buf[:e-s]
		o.mask.backBitsInto(o.Grad.Data[s:e], gh, b0)
		if o.aux == nil {
			simd.ReLUAddScaledSubBackwardFresh(gh, o.aux2.Data[s:e], grad(x, s, e), grad(a, s, e), grad(b, s, e), c, 1, o.i0)
			continue
		}
		for p := s; p < e; {
			i := p / cols
			q := min((i+1)*cols, e)
			simd.ReLUAddScaledSubBackwardFresh(gh[p-s:q-s], o.aux2.Data[p:q], grad(x, p, q), grad(a, p, q), grad(b, p, q), c, o.aux.Data[i], o.i0)
			p = q
		}
	}
}

// backBitsInto writes dropout's first gradient, +0 plus the masked and
// scaled g, into y for the elements of g, which start at block b0 of
// sixteen: backRangeBits with first, into a buffer indexed from the span's
// start.
func (m dropMask) backBitsInto(g, y []float32, b0 int) {
	w := len(g) &^ 15
	if w > 0 {
		simd.DropoutBits(m.scale, g[:w], y[:w], m.bits[b0:b0+w/16], true)
	}
	for i := w; i < len(g); i++ {
		var f float32
		if m.bits[b0+i/16]>>(i%16)&1 != 0 {
			f = m.scale
		}
		y[i] = 0 + float32(g[i]*f) // +0 + the product, as on a zeroed buffer
	}
}
