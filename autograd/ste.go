package autograd

import "fmt"

// STE is the straight-through estimator: its value is forward's value (the
// buffer is shared, not copied) and its gradient flows only to backward, as
// if the output had been backward. forward and backward must have the same
// shape; forward gets no gradient from this operation.
//
// Backward: ∂backward += ∂out; ∂forward unchanged.
func (t *Tape) STE(forward, backward *Var) *Var {
	if forward.Rows() != backward.Rows() || forward.Cols() != backward.Cols() {
		panic(fmt.Sprintf("autograd: STE forward %s, backward %s", forward.label(), backward.label()))
	}
	return t.done(t.op(forward.Value, backward, nil), steBack)
}

func steBack(o *Var) {
	o.tape.reduceInto(bcSame, o.Grad, o.tape.grad(o.in[0]), nil, 1)
}
