package autograd

import "github.com/pcgcn/pcgcn/internal/simd"

// Mul returns the element-wise product a ⊙ b with the broadcasting of Add (b
// may be a learnable 1×1 scalar, a row or a column vector).
//
// Backward: ∂a += ∂out ⊙ b (b broadcast); ∂b += (∂out ⊙ a) summed over the
// broadcast axes.
func (t *Tape) Mul(a, b *Var) *Var {
	k := broadcastKind("Mul", a, b)
	rows, cols := a.Rows(), a.Cols()
	o := t.op(t.Alloc(rows, cols), a, b)
	o.kind = k
	t.Exec.ForArg(rows, rows*cols, o, mulForward)
	return t.done(o, mulBack)
}

func mulForward(arg any, lo, hi int) {
	o := arg.(*Var)
	mulRows(o.kind, o.in[1].Value.Data, o.in[0].Value.Data, o.Value.Data, lo, hi, o.Value.Cols, false)
}

func mulBack(o *Var) {
	t, a, b := o.tape, o.in[0], o.in[1]
	if a.requiresGrad {
		t.grad(a)
		t.Exec.ForArg(o.Value.Rows, o.Value.Len(), o, mulBackA)
	}
	if b.requiresGrad {
		t.reduceInto(o.kind, o.Grad, t.grad(b), a.Value.Data, 1)
	}
}

// mulBackA adds ∂out ⊙ b (broadcast) into ∂a on rows [lo, hi).
func mulBackA(arg any, lo, hi int) {
	o := arg.(*Var)
	mulRows(o.kind, o.in[1].Value.Data, o.Grad.Data, o.in[0].Grad.Data, lo, hi, o.Value.Cols, true)
}

// mulRows writes (or, with acc, adds) x ⊙ b into y for rows lo..hi-1, b
// broadcast as k says.
func mulRows(k bcast, bd, x, y []float32, lo, hi, cols int, acc bool) {
	switch {
	case k == bcSame || k == bcCol && cols == 1:
		// the rows are contiguous in all three: one loop over the range,
		// the same operation per element (GGCN's n×1 and edge columns
		// otherwise paid a row's set-up per element)
		s, e := lo*cols, hi*cols
		mulSpan(0, bd[s:e], x[s:e], y[s:e], acc)
		return
	case k == bcScalar:
		s, e := lo*cols, hi*cols
		mulSpan(bd[0], nil, x[s:e], y[s:e], acc)
		return
	}
	for i := lo; i < hi; i++ {
		xr, yr := x[i*cols:(i+1)*cols], y[i*cols:(i+1)*cols]
		br, c := rowOperand(k, bd, i, cols)
		mulSpan(c, br, xr, yr, acc)
	}
}

// mulSpan writes (or, with acc, adds) x ⊙ br, or x·c when br is nil, into
// y: the loops of mulRows over one contiguous span.
func mulSpan(c float32, br, x, y []float32, acc bool) {
	y = y[:len(x)]
	if br != nil && simd.Enabled() && (!acc || !goFusesFMA) { // mulSpanGo's loops, packed
		simd.MulVec(x, br[:len(x)], y, acc)
		return
	}
	mulSpanGo(c, br, x, y, acc)
}

// mulSpanGo is mulSpan's Go loops.
func mulSpanGo(c float32, br, x, y []float32, acc bool) {
	switch {
	case br == nil && acc && simd.Enabled() && !goFusesFMA:
		// y[j] += v·c is MULSS (v first) then ADDSS (the product first)
		// at the default GOAMD64 level: simd.AXPY packed
		// (TestMulSpanAXPYMatchesGo)
		simd.AXPY(c, x, y)
	case br == nil && acc:
		for j, v := range x {
			y[j] += v * c
		}
	case br == nil && simd.Enabled():
		simd.ScaleVec(x, y, c) // the loop below, packed (TestScaleVecMatchesGo)
	case br == nil:
		mulScalarGo(c, x, y)
	case acc:
		br = br[:len(x)]
		for j, v := range x {
			y[j] += v * br[j]
		}
	default:
		br = br[:len(x)]
		for j, v := range x {
			y[j] = v * br[j]
		}
	}
}

// mulScalarGo sets y = x·c: mulSpanGo's loop for a scalar operand, which
// simd.ScaleVec packs (kept out of line, the reference of its test).
//
//go:noinline
func mulScalarGo(c float32, x, y []float32) {
	y = y[:len(x)]
	for j, v := range x {
		y[j] = v * c
	}
}
