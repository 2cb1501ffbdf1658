package autograd

// NegReLUNeg returns −ReLU(−x), the negative part min(x, 0) as GGCN writes
// it (Neg(ReLU(Neg(x)))): one operation instead of three, with their bits,
// since it runs their own loops (negForward, reluForward, and backward
// negBackward, reluBackward, negBackward) block by block on the stack,
// each intermediate and each intermediate gradient as fresh as the three
// operations had them (TestNegReLUNegMatchesThreeOps). On a small graph
// (GGCN's edge weights on Wisconsin: 900 entries) what this saves is the
// per-operation work: two buffers, two gradients and four tape steps.
//
// Backward: ∂x += ∂out where −x > 0.
func (t *Tape) NegReLUNeg(x *Var) *Var {
	o := t.op(t.Alloc(x.Rows(), x.Cols()), x, nil)
	n := x.Value.Len()
	t.Exec.ForArg(n, 3*n, o, negReLUNegForward)
	return t.done(o, negReLUNegBack)
}

func negReLUNegForward(arg any, lo, hi int) {
	o := arg.(*Var)
	x, out := o.in[0].Value.Data, o.Value.Data
	var t1, t2 [reluMixBlock]float32
	for s := lo; s < hi; s += reluMixBlock {
		e := min(s+reluMixBlock, hi)
		m := e - s
		negForward(0, t1[:m], x[s:e])
		reluForward(0, t2[:m], t1[:m])
		negForward(0, out[s:e], t2[:m])
	}
}

func negReLUNegBack(o *Var) {
	t := o.tape
	t.grad(o.in[0])
	n := o.Value.Len()
	t.Exec.ForArg(n, 4*n, o, negReLUNegBackward)
}

func negReLUNegBackward(arg any, lo, hi int) {
	o := arg.(*Var)
	x := o.in[0]
	var t1, g2, g1 [reluMixBlock]float32
	for s := lo; s < hi; s += reluMixBlock {
		e := min(s+reluMixBlock, hi)
		m := e - s
		negForward(0, t1[:m], x.Value.Data[s:e]) // ReLU's input, for its mask
		clear(g2[:m])
		negBackward(0, g2[:m], o.Grad.Data[s:e], nil, nil)
		clear(g1[:m])
		reluBackward(0, g1[:m], g2[:m], t1[:m], nil)
		negBackward(0, x.Grad.Data[s:e], g1[:m], nil, nil)
	}
}
