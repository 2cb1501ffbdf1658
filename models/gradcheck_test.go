package models

import (
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/tensor"
)

// checkForwardGradients checks the gradient of m's logits (plus its Aux loss
// when withAux and the model has one) with respect to all its parameters by
// finite differences with a small step, so that ReLU kinks are rarely
// crossed. The checker's parameters are swapped into the model's, sharing
// value and gradient buffers. setup, when not nil, prepares each tape (e.g.
// training mode with a fixed RNG).
func checkForwardGradients(t *testing.T, name string, m Model, withAux bool, setup func(tp *autograd.Tape)) {
	t.Helper()
	ps := m.Params()
	inputs := make([]*tensor.Dense, len(ps))
	for i, p := range ps {
		inputs[i] = p.Value.Clone()
	}
	f := func(tp *autograd.Tape, params []*autograd.Var) *autograd.Var {
		for i, p := range ps {
			*p = *params[i] // the model now reads (and differentiates) the checker's parameters
		}
		if setup != nil {
			setup(tp)
		}
		out := m.Forward(tp)
		if withAux && out.Aux != nil {
			return tp.Add(out.Logits, out.Aux)
		}
		return out.Logits
	}
	res, err := autograd.GradCheck(f, inputs, 1e-3, 1e-3, 1e-2)
	if err != nil {
		t.Errorf("%s: %v (max abs err %.3g)", name, err, res.MaxAbsErr)
	}
}
