package nn

import (
	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/rng"
)

// FeedForward is the feed-forward module of Platonov et al.'s benchmark
// models (github.com/yandex-research/heterophilous-graphs, modules.py,
// FeedForwardModule):
//
//	y = dropout(act(dropout(x·W₁ + b₁))·W₂ + b₂)
//
// with W₁ in×hidden ("<name>.lin1") and W₂ hidden×out ("<name>.lin2"), both
// initialised like torch.nn.Linear, lin1 drawn first. Every GNN layer of
// their models passes its aggregated messages through one.
type FeedForward struct {
	// Lin1 and Lin2 are the two affine maps.
	Lin1, Lin2 *Linear
}

// NewFeedForward returns a module in → hidden → out drawing from g.
func NewFeedForward(name string, in, hidden, out int, g *rng.RNG) *FeedForward {
	return &FeedForward{
		Lin1: NewLinear(name+".lin1", in, hidden, true, g),
		Lin2: NewLinear(name+".lin2", hidden, out, true, g),
	}
}

// Params returns lin1's parameters, then lin2's.
func (f *FeedForward) Params() []*autograd.Var { return append(f.Lin1.Params(), f.Lin2.Params()...) }

// Forward returns dropout(act(dropout(x·W₁ + b₁))·W₂ + b₂), dropout p
// active only when t.Training.
func (f *FeedForward) Forward(t *autograd.Tape, x *autograd.Var, p float64, act func(*autograd.Var) *autograd.Var) *autograd.Var {
	h := act(t.Dropout(f.Lin1.Forward(t, x), p))
	return t.Dropout(f.Lin2.Forward(t, h), p)
}
