package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// unaryCase is an element-wise operation with a few exact input → output pairs.
type unaryCase struct {
	name string
	op   func(tp *Tape, x *Var) *Var
	in   []float32
	want []float32
}

// checkUnary runs the gradient check of c on the odd shapes (inputs kept
// gap away from 0, where the non-smooth operations have their kink) and
// compares the exact values.
func checkUnary(t *testing.T, c unaryCase, gap float32) {
	t.Helper()
	for i, s := range oddShapes {
		check(t, c.name, func(tp *Tape, p []*Var) *Var { return c.op(tp, p[0]) }, randAway(s[0], s[1], uint64(30+i), gap))
	}
	tp := NewTape(tensor.Serial)
	x := &tensor.Dense{Rows: 1, Cols: len(c.in), Data: c.in}
	got := c.op(tp, tp.Const(x)).Value.Data
	for k, w := range c.want {
		if !testkit.Near(got[k], w, 1e-6) {
			t.Errorf("%s(%v) = %v, want %v", c.name, c.in[k], got[k], w)
		}
	}
}
