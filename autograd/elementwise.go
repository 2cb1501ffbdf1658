package autograd

// ewForward writes y = f(x) on a chunk, f depending on the parameter p.
type ewForward func(p float32, y, x []float32)

// ewBackward adds ∂y ⊙ f′ to ∂x on a chunk given the chunk's x and y.
type ewBackward func(p float32, gx, gy, x, y []float32)

// elementwise is the shared machinery of the element-wise operations: fwd
// and bwd are package-level functions of the parameter p (a slope, a scale;
// unused by some), so that the operation records no closure. cost is the
// rough price of one element in multiply-adds (transcendental functions cost
// more), used to decide on parallelism. Chunks are contiguous and every
// element is computed by one goroutine, so results do not depend on the
// thread count.
func (t *Tape) elementwise(x *Var, cost int, p float32, fwd ewForward, bwd ewBackward) *Var {
	o := t.op(t.Alloc(x.Rows(), x.Cols()), x, nil)
	o.p, o.ewf, o.ewb, o.cost = p, fwd, bwd, cost
	n := len(x.Value.Data)
	t.Exec.ForArg(n, n*cost, o, ewForwardChunk)
	return t.done(o, ewBack)
}

func ewForwardChunk(arg any, lo, hi int) {
	o := arg.(*Var)
	o.ewf(o.p, o.Value.Data[lo:hi], o.in[0].Value.Data[lo:hi])
}

func ewBack(o *Var) {
	t := o.tape
	t.grad(o.in[0])
	n := len(o.Value.Data)
	t.Exec.ForArg(n, n*o.cost, o, ewBackwardChunk)
}

func ewBackwardChunk(arg any, lo, hi int) {
	o := arg.(*Var)
	x := o.in[0]
	o.ewb(o.p, x.Grad.Data[lo:hi], o.Grad.Data[lo:hi], x.Value.Data[lo:hi], o.Value.Data[lo:hi])
}
