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
	m := &MLP{data: d, cfg: c}
	dims := layerDims(d.X.Cols(), c.Hidden, d.Graph.NumClasses, c.Layers)
	for l := 0; l < c.Layers; l++ {
		m.ls = append(m.ls, nn.NewLinear(fmt.Sprintf("lin%d", l+1), dims[l], dims[l+1], true, g))
	}
	return m, nil
}

// Params returns the layers' parameters.
func (m *MLP) Params() []*autograd.Var {
	var ps []*autograd.Var
	for _, l := range m.ls {
		ps = append(ps, l.Params()...)
	}
	return ps
}

// Forward computes the logits.
func (m *MLP) Forward(t *autograd.Tape) Output {
	h, emb := mlpForward(t, m.ls, m.data, m.cfg.Dropout)
	return Output{Logits: h, Embedding: emb}
}

// mlpForward runs a stack of linear layers on the features: dropout before
// each layer, ReLU between them. It returns the output and the last hidden
// representation (the output itself for a single layer). GPRGNN shares it.
func mlpForward(t *autograd.Tape, ls []*nn.Linear, d *Data, p float64) (out, emb *autograd.Var) {
	h := ls[0].ForwardInput(t, nn.InputFromFeatures(t, d.X), p)
	for _, l := range ls[1:] {
		emb = t.ReLU(h)
		h = l.Forward(t, t.Dropout(emb, p))
	}
	if emb == nil {
		emb = h
	}
	return h, emb
}
