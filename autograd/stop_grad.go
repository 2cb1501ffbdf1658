package autograd

// StopGrad returns a constant with x's value (the buffer is shared): nothing
// flows back to x through it.
//
// Backward: none.
func (t *Tape) StopGrad(x *Var) *Var { return t.newVar(x.Value) }
