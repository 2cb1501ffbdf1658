package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// AlphaMix returns a·b + (1−a)·(x − b) for a 1×1 a and x, b of one shape:
// PCGCN's similarity S̃ = α·ÂS + (1−α)·(I−Â)S (x = S, b = ÂS). It is the
// chain
//
//	Add(Mul(b, a), Mul(Sub(x, b), AddConst(Scale(a, −1), 1)))
//
// in one operation, with that chain's floating-point operations, forward
// and backward: the same kernels on the same operands, in the same order,
// and a's gradient from the same float64 block sums (reduceInto), so the
// bits are the chain's. What it saves is the chain's four n×c values, its
// eight gradient buffers and their zeroing, and a dozen passes over them.
//
// Backward, with g = ∂out (rounded onto +0, as Add's backward gave it to
// both products): ∂x += (1−a)·g; ∂b += −((1−a)·g) then += a·g;
// ∂a += Σ g ⊙ b, then += −(Σ g ⊙ (x − b)).
func (t *Tape) AlphaMix(x, b, a *Var) *Var {
	if x.Rows() != b.Rows() || x.Cols() != b.Cols() || a.Rows() != 1 || a.Cols() != 1 {
		panic(fmt.Sprintf("autograd: AlphaMix of %s and %s with %s (want one shape and a 1×1 weight)", x.label(), b.label(), a.label()))
	}
	rows, cols := x.Rows(), x.Cols()
	o := t.op(t.Alloc(rows, cols), x, b)
	if a.Value.Data == nil {
		panic(fmt.Sprintf("autograd: %s was released (Tape.Release) and cannot be an operation's input", a.label()))
	}
	o.xs = t.keepVars([]*Var{a})
	// 1 − a as Scale(a, −1) then AddConst(·, 1) make it
	var sc, om [1]float32
	scaleForward(-1, sc[:], a.Value.Data[:1])
	addConstForward(1, om[:], sc[:])
	o.p, o.p2 = a.Value.Data[0], om[0]
	o.aux = t.Alloc(rows, cols) // x − b, which a's gradient reads
	t.Exec.ForArg(rows, 4*rows*cols, o, alphaMixForward)
	needs := x.requiresGrad || b.requiresGrad || a.requiresGrad
	if t.noGrad || !needs {
		t.giveBack(o.aux)
		o.aux = nil
	}
	return t.record1(o, alphaMixBack, needs)
}

// alphaMixSpan is how many elements alphaMixForward and alphaMixBackward
// take at a time through their scratch arrays (on the goroutine's stack).
const alphaMixSpan = 512

// alphaMixForward computes rows [lo, hi): hom = b·a (Mul's loop), d = x − b
// (Sub's), het = d·(1−a) (Mul's), out = het + hom (Add's).
func alphaMixForward(arg any, lo, hi int) {
	o := arg.(*Var)
	cols := o.Value.Cols
	xd, bd, od, dd := o.in[0].Value.Data, o.in[1].Value.Data, o.Value.Data, o.aux.Data
	a, om := o.p, o.p2
	var hom, het [alphaMixSpan]float32
	for e0 := lo * cols; e0 < hi*cols; e0 += alphaMixSpan {
		e1 := min(e0+alphaMixSpan, hi*cols)
		h, q := hom[:e1-e0], het[:e1-e0]
		mulSpan(a, nil, bd[e0:e1], h, false)
		addSubSpan(bd[e0:e1], xd[e0:e1], dd[e0:e1], -1)
		mulSpan(om, nil, dd[e0:e1], q, false)
		addSubSpan(q, h, od[e0:e1], 1)
	}
}

// addSubSpan writes a + sign·b into out over one span: Add's and Sub's
// forward loop for a same-shape b (addSubForward, addSubVector).
func addSubSpan(b, a, out []float32, sign float32) {
	if simd.Enabled() && !goFusesFMA {
		simd.AddScaled(b, a, out, sign, 1)
		return
	}
	b, out = b[:len(a)], out[:len(a)]
	for j, v := range a {
		out[j] = v + sign*b[j]
	}
}

func alphaMixBack(o *Var) {
	t := o.tape
	x, b, a := o.in[0], o.in[1], o.xs[0]
	rows, cols := o.Value.Rows, o.Value.Cols
	if x.requiresGrad {
		t.grad(x)
	}
	o.i0 = 1
	if b.requiresGrad {
		// a first ∂b (PCGCN's ÂS) is not zeroed by the tape: each span
		// clears its part just before adding into it, while it is in L1
		_, beta := t.gradFor(b)
		o.i0 = int(beta)
	}
	gc := t.Alloc(rows, cols) // ∂hom = ∂het: ∂out onto +0, for a's sums
	o.aux2 = gc
	if !a.requiresGrad {
		t.Exec.ForArg(rows, 4*rows*cols, o, alphaMixBackward)
		t.giveBack(gc)
		o.aux2 = nil
		return
	}
	// ∂(1−a) = Σ ∂het ⊙ d (Mul's backward), ∂a += Σ ∂hom ⊙ b (Mul's),
	// then ∂(−a) = ∂(1−a) (AddConst's) and ∂a += −1·∂(−a) (Scale's). The
	// two sums are reduceInto's (bcScalar): float64 column sums of each
	// block of reduceBlock rows, taken here by the goroutine that has just
	// written the block's ∂hom, then combined as reduceInto combines them
	nb := (rows + reduceBlock - 1) / reduceBlock
	part := t.red.partials(2 * (nb + 1) * cols)
	o.s = float64(nb) // read by alphaMixBackwardBlocks for the second sums' offset
	t.Exec.ForArg(nb, 6*rows*cols, o, alphaMixBackwardBlocks)
	omg, scg := t.AllocZero(1, 1), t.AllocZero(1, 1)
	finishRowBlocks(bcScalar, part[:(nb+1)*cols], nb, cols, omg.Data, 1)
	finishRowBlocks(bcScalar, part[(nb+1)*cols:], nb, cols, t.grad(a).Data, 1)
	addGrad(0, scg.Data, omg.Data, nil, nil)
	scaleBackward(-1, a.Grad.Data[:1], scg.Data, nil, nil)
	t.giveBack(omg)
	t.giveBack(scg)
	t.giveBack(gc)
	o.aux2 = nil
}

// alphaMixBackwardBlocks runs alphaMixBackward on the rows of the blocks
// [lo, hi) of reduceBlock rows, and after each block its float64 column
// sums of ∂hom ⊙ d and ∂hom ⊙ b (reduceRowBlocksVec, the additions of
// reduceInto's) into the tape's partial sums: the first sums' blocks from
// 0, the second's from nb + 1 blocks on.
func alphaMixBackwardBlocks(arg any, lo, hi int) {
	o := arg.(*Var)
	rows, cols := o.Value.Rows, o.Value.Cols
	nb := int(o.s)
	part := o.tape.red.partial
	vec := simd.Enabled()
	for blk := lo; blk < hi; blk++ {
		r0, r1 := blk*reduceBlock, min((blk+1)*reduceBlock, rows)
		alphaMixBackward(o, r0, r1)
		if vec && cols < 8 {
			// both sums in one pass, ColSumsTail's operations: g, d and b
			// run on past the block, so that most rows take plain loads
			s := r0 * cols
			simd.ColSums2Narrow(r1-r0, cols, o.aux2.Data[s:], o.aux.Data[s:], o.in[1].Value.Data[s:],
				part[blk*cols:(blk+1)*cols], part[(nb+1+blk)*cols:(nb+2+blk)*cols])
			continue
		}
		het := reduction{g: o.aux2, mul: o.aux.Data, partial: part[:(nb+1)*cols]}
		reduceRowBlocksVec(&het, blk, blk+1, vec)
		hom := reduction{g: o.aux2, mul: o.in[1].Value.Data, partial: part[(nb+1)*cols:]}
		reduceRowBlocksVec(&hom, blk, blk+1, vec)
	}
}

// alphaMixBackward runs rows [lo, hi) of the chain's element-wise backward
// steps in its order: Add's (∂hom = ∂het = 1·g + 0), Mul(d, 1−a)'s
// (∂d = ∂het·(1−a) + 0), Sub's (∂x += 1·∂d, ∂b = −1·∂d onto ∂b) and
// Mul(b, a)'s (∂b += ∂hom·a).
func alphaMixBackward(arg any, lo, hi int) {
	o := arg.(*Var)
	cols := o.Value.Cols
	x, b := o.in[0], o.in[1]
	g, gc := o.Grad.Data, o.aux2.Data
	a, om := o.p, o.p2
	var dg [alphaMixSpan]float32
	for e0 := lo * cols; e0 < hi*cols; e0 += alphaMixSpan {
		e1 := min(e0+alphaMixSpan, hi*cols)
		c, d := gc[e0:e1], dg[:e1-e0]
		clear(c)
		axpySpan(1, g[e0:e1], c)
		clear(d)
		mulSpan(om, nil, c, d, true)
		if x.requiresGrad {
			axpySpan(1, d, x.Grad.Data[e0:e1])
		}
		if b.requiresGrad {
			gb := b.Grad.Data[e0:e1]
			if o.i0 == 0 {
				clear(gb) // a first ∂b: the zeros Tape.grad would have written
			}
			axpySpan(-1, d, gb)
			mulSpan(a, nil, c, gb, true)
		}
	}
}
