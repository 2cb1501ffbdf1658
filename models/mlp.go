package models

import (
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/rng"
)

// MLPConfig holds the MLP's hyperparameters.
type MLPConfig struct {
	Common
}

// Base returns the shared hyperparameters.
func (c *MLPConfig) Base() *Common { return &c.Common }

// Validate reports the first out-of-range hyperparameter: layers and hidden.
func (c *MLPConfig) Validate() error {
	if err := validateShared(c); err != nil {
		return fmt.Errorf("mlp: %w", err)
	}
	if c.Layers < 1 || c.Hidden < 1 {
		return fmt.Errorf("mlp: need layers ≥ 1 and hidden ≥ 1, got %d and %d", c.Layers, c.Hidden)
	}
	return nil
}

// MLPPreset returns a 2-layer MLP with 64 hidden units, dropout 0.5, lr 0.01
// and weight decay 5e-4 (the same as ../shared/bench).
func MLPPreset(string) *MLPConfig {
	return &MLPConfig{Common: Common{Hidden: 64, Layers: 2, Dropout: 0.5, LR: 0.01, WeightDecay: 5e-4, NormalizeFeatures: true}}
}

func mlpSpec() Spec {
	return Spec{
		Name:    "mlp",
		Summary: "MLP: multilayer perceptron on the node features, graph ignored",
		Preset:  func(ds string) Config { return MLPPreset(ds) },
		New:     typedNew("mlp", NewMLP),
	}
}

// MLP is a stack of PyTorch-default Linear layers with ReLU and dropout.
type MLP struct {
	data *Data
	cfg  *MLPConfig
	ls   []*nn.Linear
}

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
