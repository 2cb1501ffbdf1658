package models

import (
	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/rng"
)

// MLPConfig holds the MLP's hyperparameters.
type MLPConfig struct {
	Common
}

// Validate reports the first out-of-range hyperparameter (see validate and
// the range tags).
func (c *MLPConfig) Validate() error { return validate("mlp", c) }

// MLPPreset returns a 2-layer MLP with 64 hidden units, dropout 0.5, lr 0.01
// and weight decay 5e-4 (the same as ../shared/bench).
func MLPPreset(string) *MLPConfig {
	return &MLPConfig{Common: gcnCommon()}
}

func mlpSpec() Spec {
	return newSpec("mlp", "MLP: multilayer perceptron on the node features, graph ignored", Symmetrised, MLPPreset, NewMLP)
}

// MLP is a stack of PyTorch-default Linear layers with ReLU and dropout.
type MLP struct {
	data *Data
	cfg  *MLPConfig
	ls   []*nn.Linear
}

// Compile-time checks of the interfaces MLP and its config implement.
var (
	_ Model  = (*MLP)(nil)
	_ Config = (*MLPConfig)(nil)
)

// NewMLP builds an MLP with cfg.Layers linear layers.
func NewMLP(d *Data, c *MLPConfig, g *rng.RNG) (*MLP, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	ls := newMLP(d.X.Cols(), c.Hidden, d.Graph.NumClasses, c.Layers, g)
	return &MLP{data: d, cfg: c, ls: ls}, nil
}

// newMLP returns the linear layers lin1…linL of an MLP from in to out
// features (APPNP and GPRGNN share it).
func newMLP(in, hidden, out, layers int, g *rng.RNG) []*nn.Linear {
	return nn.NewStack("lin", in, hidden, out, layers, func(name string, in, out int) *nn.Linear {
		return nn.NewLinear(name, in, out, true, g)
	})
}

// Params returns the layers' parameters.
func (m *MLP) Params() []*autograd.Var { return nn.ParamsOf(m.ls) }

// Forward computes the logits.
func (m *MLP) Forward(t *autograd.Tape) Output {
	h, emb := nn.Stack(t, m.ls, nn.InputFromFeatures(t, m.data.X), m.cfg.Dropout, t.ReLU)
	return Output{Logits: h, Embedding: emb}
}
