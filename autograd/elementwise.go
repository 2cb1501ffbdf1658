package autograd

// elementwise is the shared machinery of the element-wise operations: fwd
// writes y = f(x) on a chunk, and bwd adds ∂y ⊙ f′ to ∂x on a chunk given the
// chunk's x and y. cost is the rough price of one element in multiply-adds
// (transcendental functions cost more), used to decide on parallelism.
// Chunks are contiguous and every element is computed by one goroutine, so
// results do not depend on the thread count.
func (t *Tape) elementwise(x *Var, cost int, fwd func(y, x []float32), bwd func(gx, gy, x, y []float32)) *Var {
	out := t.Alloc(x.Rows(), x.Cols())
	xd, yd := x.Value.Data, out.Data
	n := len(xd)
	t.Exec.For(n, n*cost, func(lo, hi int) { fwd(yd[lo:hi], xd[lo:hi]) })
	return t.record(out, func(o *Var) {
		gx, gy := t.grad(x).Data, o.Grad.Data
		t.Exec.For(n, n*cost, func(lo, hi int) { bwd(gx[lo:hi], gy[lo:hi], xd[lo:hi], yd[lo:hi]) })
	}, x)
}
