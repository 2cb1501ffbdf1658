package autograd

// Add returns a + b, where b has a's shape or is broadcast from a 1×cols row,
// a rows×1 column or a 1×1 scalar.
//
// Backward: ∂a += ∂out; ∂b += ∂out summed over the broadcast axes.
func (t *Tape) Add(a, b *Var) *Var { return t.addSub("Add", a, b, 1) }

// Sub returns a − b with the broadcasting of Add.
//
// Backward: ∂a += ∂out; ∂b −= ∂out summed over the broadcast axes.
func (t *Tape) Sub(a, b *Var) *Var { return t.addSub("Sub", a, b, -1) }

func (t *Tape) addSub(op string, a, b *Var, sign float32) *Var {
	k := broadcastKind(op, a, b)
	rows, cols := a.Rows(), a.Cols()
	out := t.Alloc(rows, cols)
	ad, bd, od := a.Value.Data, b.Value.Data, out.Data
	t.Exec.For(rows, rows*cols, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			for j := 0; j < cols; j++ {
				p := i*cols + j
				od[p] = ad[p] + sign*bd[bIndex(k, i, j, cols)]
			}
		}
	})
	return t.record(out, func(o *Var) {
		if a.requiresGrad {
			ga := t.grad(a).Data
			for p, g := range o.Grad.Data {
				ga[p] += g
			}
		}
		if b.requiresGrad {
			reduceInto(k, o.Grad, t.grad(b), func(int, int) float32 { return sign })
		}
	}, a, b)
}
