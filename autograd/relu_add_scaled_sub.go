package autograd

import (
	"fmt"
	"math"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// ReLUAddScaledSub returns max(x + c·((a − b) ⊙ m), 0) for x, a and b of one
// shape, a constant c and an optional rows×1 column m (nil: all ones): PCGCN's
// layer update ReLU(ÂHW + β·(H − BP)W ⊙ pinned), in one operation instead of
// Sub, Mul, Scale, Add and ReLU. Only its output is kept; the four
// intermediate values and their gradients, four rows×cols buffers each,
// are never made, which on a graph of a million nodes and 64 hidden units
// is 2 GiB less per layer.
//
// Every element is computed with the unfused chain's float32 roundings, in its
// order (a − b, then ⊙ m, then ·c, then x +, then the max), so the result
// and every gradient are bit for bit those of the chain; the products are
// converted explicitly so that no compiler fuses them into multiply-adds.
//
// Backward, with g = ∂out where out > 0 (0 elsewhere): ∂x += g,
// ∂a += c·g ⊙ m, ∂b −= c·g ⊙ m.
func (t *Tape) ReLUAddScaledSub(x, a, b *Var, m *tensor.Dense, c float32) *Var {
	rows, cols := x.Rows(), x.Cols()
	for _, v := range []*Var{a, b} {
		if v.Rows() != rows || v.Cols() != cols {
			panic(fmt.Sprintf("autograd: ReLUAddScaledSub of %s with %s", x.label(), v.label()))
		}
	}
	if m != nil && (m.Rows != rows || m.Cols != 1) {
		panic(fmt.Sprintf("autograd: ReLUAddScaledSub mask %s for %d rows", m.Shape(), rows))
	}
	o := t.op(t.Alloc(rows, cols), a, b)
	o.xs = t.keepVars([]*Var{x})
	o.aux, o.p = m, c
	t.Exec.ForArg(rows, 5*rows*cols, o, reluAddScaledSubForward)
	return t.record1(o, reluAddScaledSubBack, x.requiresGrad || a.requiresGrad || b.requiresGrad)
}

// reluAddScaledSubForward computes rows [lo, hi): through the vector kernel
// when there is one (simd.ReLUAddScaledSub, the same bits as the Go loop:
// without a mask all the rows at once, with mi = 1, which leaves the
// difference's bits as they are), otherwise the Go loop.
func reluAddScaledSubForward(arg any, lo, hi int) {
	o := arg.(*Var)
	if !simd.Enabled() {
		reluAddScaledSubForwardGo(o, lo, hi)
		return
	}
	cols, c := o.Value.Cols, o.p
	xd, ad, bd, od := o.xs[0].Value.Data, o.in[0].Value.Data, o.in[1].Value.Data, o.Value.Data
	if o.aux == nil {
		s, e := lo*cols, hi*cols
		simd.ReLUAddScaledSub(xd[s:e], ad[s:e], bd[s:e], od[s:e], c, 1)
		return
	}
	for i := lo; i < hi; i++ {
		s, e := i*cols, (i+1)*cols
		simd.ReLUAddScaledSub(xd[s:e], ad[s:e], bd[s:e], od[s:e], c, o.aux.Data[i])
	}
}

// reluAddScaledSubForwardGo is the forward of rows [lo, hi) in Go, the
// definition the vector kernel follows.
func reluAddScaledSubForwardGo(o *Var, lo, hi int) {
	cols, c := o.Value.Cols, o.p
	xd, ad, bd, od := o.xs[0].Value.Data, o.in[0].Value.Data, o.in[1].Value.Data, o.Value.Data
	for i := lo; i < hi; i++ {
		s, e := i*cols, (i+1)*cols
		xr, ar, br, or := xd[s:e], ad[s:e], bd[s:e], od[s:e]
		ar, br, or = ar[:len(xr)], br[:len(xr)], or[:len(xr)]
		if o.aux == nil {
			for j, v := range xr {
				d := ar[j] + float32(-1*br[j])
				or[j] = max(v+float32(1*float32(c*d)), 0)
			}
			continue
		}
		mi := o.aux.Data[i]
		for j, v := range xr {
			d := float32(ar[j]+float32(-1*br[j])) * mi
			or[j] = max(v+float32(1*float32(c*d)), 0)
		}
	}
}

// reluAddScaledSubBack takes the three gradient buffers and runs the
// backward over the rows. A gradient that is first here (PCGCN's ÂHW, HW
// and BPW all are) is not zeroed by the tape in a pass of its own: its bit
// in o.i0 (1: x, 2: a, 4: b) has the vector kernel write it onto +0
// without reading it (simd.ReLUAddScaledSubBackwardFresh: v + 0, what the
// add into the zeroed buffer of Tape.grad gives), and the Go loop clear
// each goroutine's rows just before adding into them, a block of rows at
// a time, so the buffer is still in L1. The bits are the same either way;
// what is saved is a pass over up to three rows×cols buffers and its
// hand-off (and, in the vector path, the clearing and the reads).
func reluAddScaledSubBack(o *Var) {
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
	t.Exec.ForArg(o.Value.Rows, 4*o.Value.Len(), o, reluAddScaledSubBackward)
}

// reluAddScaledSubClearRows is how many rows reluAddScaledSubBackward
// clears in its fresh gradients before adding into them (16 rows of 64
// floats: 4 KiB a buffer).
const reluAddScaledSubClearRows = 16

// reluAddScaledSubBackward runs the backward of rows [lo, hi): through the
// vector kernel, which writes the fresh gradients (o.i0) itself, in one
// piece; in Go a block at a time, the block's rows of the fresh gradients
// cleared first.
func reluAddScaledSubBackward(arg any, lo, hi int) {
	o := arg.(*Var)
	if o.i0 == 0 || simd.Enabled() {
		// the vector kernel writes the fresh gradients itself, onto +0
		// (simd.ReLUAddScaledSubBackwardFresh): nothing to clear
		reluAddScaledSubBackwardRows(o, lo, hi)
		return
	}
	cols := o.Value.Cols
	vs := [3]*Var{o.xs[0], o.in[0], o.in[1]}
	for r0 := lo; r0 < hi; r0 += reluAddScaledSubClearRows {
		r1 := min(r0+reluAddScaledSubClearRows, hi)
		for i, v := range vs {
			if o.i0&(1<<i) != 0 {
				clear(v.Grad.Data[r0*cols : r1*cols])
			}
		}
		reluAddScaledSubBackwardRows(o, r0, r1)
	}
}

// reluAddScaledSubBackwardRows mirrors the chain's backward steps for rows
// [lo, hi): ReLU's masked gradient, Add's and Scale's, Mul's and Sub's, each
// accumulated into a zeroed buffer as the chain's intermediate gradients
// were (the vector kernel writes the fresh ones, o.i0, onto +0 itself; the
// Go loop finds them cleared).
func reluAddScaledSubBackwardRows(o *Var, lo, hi int) {
	if !simd.Enabled() {
		reluAddScaledSubBackwardGo(o, lo, hi)
		return
	}
	cols, c := o.Value.Cols, o.p
	x, a, b := o.xs[0], o.in[0], o.in[1]
	grad := func(v *Var, s, e int) []float32 {
		if !v.requiresGrad {
			return nil
		}
		return v.Grad.Data[s:e]
	}
	if o.aux == nil {
		s, e := lo*cols, hi*cols
		simd.ReLUAddScaledSubBackwardFresh(o.Grad.Data[s:e], o.Value.Data[s:e], grad(x, s, e), grad(a, s, e), grad(b, s, e), c, 1, o.i0)
		return
	}
	for i := lo; i < hi; i++ {
		s, e := i*cols, (i+1)*cols
		simd.ReLUAddScaledSubBackwardFresh(o.Grad.Data[s:e], o.Value.Data[s:e], grad(x, s, e), grad(a, s, e), grad(b, s, e), c, o.aux.Data[i], o.i0)
	}
}

// reluAddScaledSubBackwardGo is the backward of rows [lo, hi) in Go, the
// definition the vector kernel follows.
func reluAddScaledSubBackwardGo(o *Var, lo, hi int) {
	cols, c := o.Value.Cols, o.p
	x, a, b := o.xs[0], o.in[0], o.in[1]
	gy, out := o.Grad.Data, o.Value.Data
	for i := lo; i < hi; i++ {
		mi := float32(1)
		if o.aux != nil {
			mi = o.aux.Data[i]
		}
		for p := i * cols; p < (i+1)*cols; p++ {
			g3 := 0 + math.Float32frombits(math.Float32bits(gy[p])&positiveMask(out[p])) // ReLU
			if x.requiresGrad {
				x.Grad.Data[p] += float32(1 * g3) // Add, into x
			}
			g2 := 0 + float32(1*g3) // Add, into the scaled term
			g1 := 0 + float32(c*g2) // Scale
			if o.aux != nil {       // Mul by the column mask
				g1 = 0 + float32(g1*mi)
			}
			if a.requiresGrad {
				a.Grad.Data[p] += float32(1 * g1) // Sub, into a
			}
			if b.requiresGrad {
				b.Grad.Data[p] += float32(-1 * g1) // Sub, into b
			}
		}
	}
}
