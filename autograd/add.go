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
			ar, or := ad[i*cols:(i+1)*cols], od[i*cols:(i+1)*cols]
			br, c := rowOperand(k, bd, i, cols)
			if br == nil {
				c *= sign
				for j, v := range ar {
					or[j] = v + c
				}
				continue
			}
			br = br[:len(ar)]
			for j, v := range ar {
				or[j] = v + sign*br[j]
			}
		}
	})
	return t.record(out, func(o *Var) {
		if a.requiresGrad {
			reduceInto(t.Exec, bcSame, o.Grad, t.grad(a), nil, 1)
		}
		if b.requiresGrad {
			reduceInto(t.Exec, k, o.Grad, t.grad(b), nil, sign)
		}
	}, a, b)
}
