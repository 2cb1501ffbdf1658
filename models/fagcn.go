package models

import (
	"fmt"
	"math"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// FAGCNConfig holds FAGCN's hyperparameters. Layers is the number of
// frequency-adaptive propagation layers (the authors' layer_num).
type FAGCNConfig struct {
	Common
	// Eps is the weight ε of the raw representation added back after every
	// layer.
	Eps float64 `json:"eps"`
}

// Validate reports the first out-of-range hyperparameter (see validate and
// the range tags).
func (c *FAGCNConfig) Validate() error { return validate("fagcn", c) }

// FAGCNPreset returns FAGCN's setting for a dataset. For the heterophilous
// graphs (Chameleon, Squirrel, Actor, Cornell, Texas, Wisconsin and the
// filtered/extra graphs) it is the authors' defaults in
// github.com/bdy9527/FAGCN src/train.py, the script they ran on the Geom-GCN
// graphs with a 60/20/20 split: 32 hidden units, dropout 0.5, lr 0.01, weight
// decay 5e-5, ε = 0.3, 2 layers. The repository publishes no per-dataset
// values for the Geom-GCN splits. For Cora, CiteSeer and PubMed we chose the
// citation setting the FAGCN paper describes (dropout 0.6, weight decay 1e-3,
// ε = 0.3) with 64 hidden units and 4 layers; we could not re-check these
// numbers against the paper's text. The authors train 500 epochs and keep the
// epoch of best validation accuracy; our protocol (≤1000 epochs, patience
// 200) is kept. Features are row-normalised as in the authors' loader.
func FAGCNPreset(dataset string) *FAGCNConfig {
	switch dataset {
	case "cora", "citeseer", "pubmed":
		return &FAGCNConfig{
			Common: Common{Hidden: 64, Layers: 4, Dropout: 0.6, LR: 0.01, WeightDecay: 1e-3, NormalizeFeatures: true},
			Eps:    0.3,
		}
	}
	return &FAGCNConfig{
		Common: Common{Hidden: 32, Layers: 2, Dropout: 0.5, LR: 0.01, WeightDecay: 5e-5, NormalizeFeatures: true},
		Eps:    0.3,
	}
}

func fagcnSpec() Spec {
	return newSpec("fagcn", "FAGCN: frequency-adaptive GCN with signed edge gates (Bo et al., 2021)", Symmetrised, FAGCNPreset, NewFAGCN)
}

// FAGCN is the frequency adaptation graph convolutional network of Bo, Wang,
// Shi & Shen, "Beyond Low-frequency Information in Graph Convolutional
// Networks" (AAAI 2021), as in the authors' code (github.com/bdy9527/FAGCN,
// src/model.py):
//
//	H⁽⁰⁾ = dropout(ReLU(dropout(X)·W₁ + b₁))              (the raw representation)
//	α_ij = tanh(gᵀ[h_i ‖ h_j] + b_g) / √(d_i d_j)          for every edge (i, j)
//	H⁽ˡ⁾_i = ε·H⁽⁰⁾_i + Σ_{j∈N(i)} dropout(α_ij)·H⁽ˡ⁻¹⁾_j   (l = 1..L)
//	logits = H⁽ᴸ⁾·W₂ + b₂
//
// The graph has no self-loops and d_i is the degree clamped to at least 1;
// each layer has its own gate (g, b_g). The signed coefficient α_ij lets a
// layer act as a low-pass (α > 0) or high-pass (α < 0) filter per edge. W₁,
// W₂ and g are Xavier-normal with gain 1.414, biases PyTorch's default.
type FAGCN struct {
	data *Data
	cfg  *FAGCNConfig
	t1   *nn.Linear
	t2   *nn.Linear
	// gates[l] is hidden×2: column 0 multiplies h_i (the receiving node),
	// column 1 h_j (the sender); gateB[l] is the 1×1 gate bias.
	gates []*autograd.Var
	gateB []*autograd.Var
	// norm is the nnz×1 constant 1/√(d_i d_j) on the pattern of Adj.
	norm *tensor.Dense
}

// Compile-time checks of the interfaces FAGCN and its config implement.
var (
	_ Model  = (*FAGCN)(nil)
	_ Config = (*FAGCNConfig)(nil)
)

// NewFAGCN builds FAGCN with cfg.Layers propagation layers.
func NewFAGCN(d *Data, c *FAGCNConfig, g *rng.RNG) (*FAGCN, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	const gain = 1.414 // the authors' xavier_normal_ gain
	m := &FAGCN{data: d, cfg: c}
	hid := c.Hidden
	m.t1 = nn.NewLinear("t1", d.X.Cols(), hid, true, g)
	nn.XavierNormal(m.t1.W.Value, gain, g)
	for l := 0; l < c.Layers; l++ {
		// The gate is nn.Linear(2·hidden, 1): Xavier-normal over fan_in 2·hidden,
		// fan_out 1; its bias U(±1/√(2·hidden)).
		w := tensor.NewDense(hid, 2)
		nn.Normal(w, 0, gain*math.Sqrt(2/float64(2*hid+1)), g)
		b := tensor.NewDense(1, 1)
		bound := 1 / math.Sqrt(float64(2*hid))
		nn.Uniform(b, -bound, bound, g)
		m.gates = append(m.gates, autograd.NewParam(fmt.Sprintf("layer%d.gate.W", l+1), w))
		m.gateB = append(m.gateB, autograd.NewParam(fmt.Sprintf("layer%d.gate.b", l+1), b))
	}
	m.t2 = nn.NewLinear("t2", hid, d.Graph.NumClasses, true, g)
	nn.XavierNormal(m.t2.W.Value, gain, g)
	m.norm = fagcnEdgeNorm(d.Graph.Adj)
	return m, nil
}

// fagcnEdgeNorm returns 1/√(d_i d_j) for every stored entry (i, j) of adj,
// with d the number of stored entries of a row clamped to at least 1.
func fagcnEdgeNorm(adj *tensor.CSR) *tensor.Dense {
	n := adj.Rows
	inv := make([]float64, n)
	for i := 0; i < n; i++ {
		inv[i] = 1 / math.Sqrt(math.Max(1, float64(adj.RowPtr[i+1]-adj.RowPtr[i])))
	}
	out := tensor.NewDense(adj.NNZ(), 1)
	for i := 0; i < n; i++ {
		for k := adj.RowPtr[i]; k < adj.RowPtr[i+1]; k++ {
			out.Data[k] = float32(inv[i] * inv[adj.ColIdx[k]])
		}
	}
	return out
}

// Params returns t1, the gates and t2.
func (m *FAGCN) Params() []*autograd.Var {
	ps := append([]*autograd.Var{}, m.t1.Params()...)
	for l := range m.gates {
		ps = append(ps, m.gates[l], m.gateB[l])
	}
	return append(ps, m.t2.Params()...)
}

// Forward computes the logits.
func (m *FAGCN) Forward(t *autograd.Tape) Output {
	p := m.cfg.Dropout
	adj := m.data.Graph.Adj
	raw := t.Dropout(t.ReLU(m.t1.ForwardInput(t, nn.InputFromFeatures(t, m.data.X), p)), p)
	norm := t.Const(m.norm)
	h := raw
	for l := range m.gates {
		s := t.MatMul(h, m.gates[l]) // n×2: gate scores of h_i and h_j
		e := t.EdgeGatherAdd(adj, t.SliceCols(s, 0, 1), t.SliceCols(s, 1, 2))
		e = t.Mul(t.Tanh(t.Add(e, m.gateB[l])), norm)
		z := t.SpMMEdges(adj, t.Dropout(e, p), h)
		h = t.Add(t.Scale(raw, float32(m.cfg.Eps)), z)
	}
	return Output{Logits: m.t2.Forward(t, h), Embedding: h}
}
