package models

import (
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// APPNPConfig holds APPNP's hyperparameters. Hidden and Layers describe the
// MLP that makes the predictions before propagation.
type APPNPConfig struct {
	Common
	// K is the number of power-iteration steps.
	K int `json:"k" range:"≥0"`
	// Alpha is the teleport (restart) probability α.
	Alpha float64 `json:"alpha" range:"[0,1]"`
	// EdgeDropout is the dropout rate on the values of Â, drawn anew at every
	// propagation step (the authors' code uses 0.5; PyG's APPNP 0).
	EdgeDropout float64 `json:"edge_dropout" range:"[0,1)"`
}

// Validate reports the first out-of-range hyperparameter (see validate and
// the range tags).
func (c *APPNPConfig) Validate() error { return validate("appnp", c) }

// APPNPPreset returns the setting of Klicpera et al. (Sec. 6: 2-layer MLP of
// 64 units, dropout 0.5, lr 0.01, K = 10, α = 0.1) with row-normalised
// features, for every dataset but the WebKB graphs, where α is 0.9 (chosen
// on validation, below). Two choices are ours: weight decay 5e-4 on
// every parameter (the paper puts an L2 of 5e-3 on the first layer only,
// which our Adam cannot express) and no edge dropout (PyG's APPNP, which the
// PCGCN authors' PyG-based baselines use; set edge_dropout 0.5 for the
// original). No Geom-GCN-split setting is published by the authors.
func APPNPPreset(dataset string) *APPNPConfig {
	c := &APPNPConfig{
		Common: gcnCommon(),
		K:      10, Alpha: 0.1,
	}
	switch dataset {
	case "cornell", "texas", "wisconsin":
		// chosen on validation: pcgcn tune --grid alpha=0.1,0.5,0.9 --splits
		// 0-2 (results/tune) puts α = 0.9 first on all three WebKB graphs
		// (validation 85.4 / 81.4 / 81.9 against 63.3 / 66.1 / 66.7 for 0.1,
		// Wisconsin / Cornell / Texas): on these small heterophilous graphs
		// the teleport back to the node's own prediction must dominate, as
		// the per-dataset APPNP settings others publish for similar splits
		// have it (α 0.88-0.98; docs/notes/issue24-research.md)
		c.Alpha = 0.9
	}
	return c
}

func appnpSpec() Spec {
	return newSpec("appnp", "APPNP: MLP predictions propagated by personalized PageRank (Klicpera et al., 2019)", Symmetrised, APPNPPreset, NewAPPNP)
}

// APPNP is "approximate personalized propagation of neural predictions"
// (Klicpera, Bojchevski & Günnemann, ICLR 2019):
//
//	H   = f_θ(X)                        (MLP: Linear, ReLU, …, Linear; dropout on each input)
//	Z⁰  = H
//	Zᵏ⁺¹ = (1−α)·Â·Zᵏ + α·H,  k = 0…K−1  (Â = D̃^{-1/2}(A+I)D̃^{-1/2})
//	logits = Zᴷ
//
// optionally with dropout on Â's values at each step (EdgeDropout). The
// linear layers are initialised like torch.nn.Linear.
//
// Source: Klicpera et al., "Predict then Propagate: Graph Neural Networks
// meet Personalized PageRank", ICLR 2019, Eq. 3; github.com/klicperajo/ppnp
// (ppnp/pytorch/propagation.py, PPRPowerIteration); PyG APPNP.
type APPNP struct {
	data *Data
	cfg  *APPNPConfig
	ls   []*nn.Linear
	aHat *tensor.CSR // Â, or its arrays without the symmetric mark (for edge dropout)
}

// Compile-time checks of the interfaces APPNP and its config implement.
var (
	_ Model  = (*APPNP)(nil)
	_ Config = (*APPNPConfig)(nil)
)

// NewAPPNP builds the MLP of APPNP.
func NewAPPNP(d *Data, c *APPNPConfig, g *rng.RNG) (*APPNP, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	m := &APPNP{data: d, cfg: c, aHat: d.AHat()}
	if c.EdgeDropout > 0 {
		// Dropped values are not symmetric: SpMM's backward must use the real
		// transpose, so the matrix must not carry the symmetric mark.
		a, err := tensor.NewCSR(m.aHat.Rows, m.aHat.Cols, m.aHat.RowPtr, m.aHat.ColIdx, m.aHat.Val)
		if err != nil {
			return nil, fmt.Errorf("appnp: %w", err)
		}
		m.aHat = a
	}
	m.ls = newMLP(d.X.Cols(), c.Hidden, d.Graph.NumClasses, c.Layers, g)
	return m, nil
}

// Params returns the MLP's parameters.
func (m *APPNP) Params() []*autograd.Var { return nn.ParamsOf(m.ls) }

// Forward computes the MLP's predictions and propagates them.
func (m *APPNP) Forward(t *autograd.Tape) Output {
	h, emb := nn.Stack(t, m.ls, nn.InputFromFeatures(t, m.data.X), m.cfg.Dropout, t.ReLU)
	alpha := float32(m.cfg.Alpha)
	teleport := t.Scale(h, alpha)
	z := h
	for k := 0; k < m.cfg.K; k++ {
		z = t.Add(t.Scale(t.SpMM(t.DropoutCSR(m.aHat, m.cfg.EdgeDropout), z), 1-alpha), teleport)
	}
	return Output{Logits: z, Embedding: emb}
}
