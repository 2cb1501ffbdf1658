package models

import (
	"fmt"
	"math"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// GCNIIConfig holds GCNII's hyperparameters. Common.Layers counts the graph
// convolutions (the input and output linear layers come on top).
type GCNIIConfig struct {
	Common
	// Alpha is the initial-residual weight α.
	Alpha float64 `json:"alpha" range:"[0,1]"`
	// Lambda sets the identity-mapping strength β_l = log(λ/l + 1).
	Lambda float64 `json:"lambda" range:">0"`
	// Variant is "gcnii" (one weight per layer, applied to the mixture of the
	// propagated features and the initial residual) or "gcnii*" (separate
	// weights for the two terms; the authors' --variant flag).
	Variant string `json:"variant" range:"gcnii|gcnii*"`
	// ShareWeights, when true, uses one convolution weight for every layer
	// (a reading of the PCGCN paper's "parameters are shared between layers";
	// off in the GCNII paper).
	ShareWeights bool `json:"share_weights"`
	// Directed aggregates over the graph's directed links when it has them,
	// as the authors' process.py builds every Geom-GCN graph (see
	// propagation). The preset sets it where the dataset keeps the links'
	// direction (Actor, the WebKB graphs, the *-directed datasets); false
	// elsewhere, and then left out of the JSON, so that the saved
	// configurations of the graphs without a direction stay the same.
	Directed bool `json:"directed,omitempty"`
}

// Validate reports the first out-of-range hyperparameter (see validate and
// the range tags).
func (c *GCNIIConfig) Validate() error { return validate("gcnii", c) }

// gcniiPresets are the authors' full-supervised settings on the Geom-GCN
// splits (chennnM/GCNII, full.sh with the defaults of full-supervised.py:
// hidden 64, dropout 0.5, lr 0.01, α 0.5, λ 0.5): layers, α, λ, weight decay.
var gcniiPresets = map[string][4]float64{
	"cora":      {64, 0.2, 0.5, 1e-4},
	"citeseer":  {64, 0.5, 0.5, 5e-6},
	"pubmed":    {64, 0.1, 0.5, 5e-6},
	"chameleon": {8, 0.2, 1.5, 5e-4},
	"cornell":   {16, 0.5, 1, 1e-3},
	"texas":     {32, 0.5, 1.5, 1e-4},
	"wisconsin": {16, 0.5, 1, 5e-4},
}

// GCNIIPreset returns the authors' full-supervised setting for a dataset
// (see gcniiPresets). The authors publish none for Squirrel and Actor:
// Squirrel gets Chameleon's (our choice: nearest relative by kind of graph;
// GGCN's rerun setting for it loses on validation), Actor GGCN's rerun
// setting (below), and Chameleon's goes to the filtered Chameleon/Squirrel (Chameleon's),
// Minesweeper and Tolokers (Chameleon's) and unknown datasets (Chameleon's).
//
// The variant defaults to "gcnii*". The PCGCN paper compares "one variant of
// GCNII wherein parameters are shared between layers"; the GCNII paper
// introduces GCNII* as "a variant of GCNII", and no GCNII has weights shared
// between layers, so we read the sentence as GCNII* (whose weights are
// shared by neither layers nor terms: the phrase is taken as loose). Three
// facts support it: the PCGCN paper's Texas and Wisconsin numbers (77.57,
// 80.39) sit near GCNII*'s in the GCNII paper (77.84, 81.57) rather than
// GCNII's (69.46, 74.12), and GCNII* had the higher validation accuracy in
// all our runs (10 splits: Texas 86.8 vs 82.4, Wisconsin 84.9 vs 80.8,
// Cornell 84.6 vs 83.4; Chameleon, splits 0-2: 59.9 vs 58.5).
// variant=gcnii and share_weights=true give the other readings.
// The authors train up to 1500 epochs with patience 100 on validation loss;
// our protocol is kept.
func GCNIIPreset(dataset string) *GCNIIConfig {
	p, ok := gcniiPresets[dataset]
	if !ok {
		switch dataset {
		case "actor", "film":
			p = gcniiPresets["wisconsin"]
		default:
			p = gcniiPresets["chameleon"]
		}
	}
	c := &GCNIIConfig{
		Common: Common{Hidden: 64, Layers: int(p[0]), Dropout: 0.5, LR: 0.01, WeightDecay: p[3], NormalizeFeatures: true},
		Alpha:  p[1], Lambda: p[2], Variant: "gcnii*",
	}
	switch dataset {
	case "actor", "film", "cornell", "texas", "wisconsin":
		// the authors' loader (process.py, full_load_data) reads the
		// Geom-GCN edge files into an nx.DiGraph and normalises rows only:
		// these graphs, whose files keep the direction (graph.Graph.Out),
		// propagate over out-links; the *-directed datasets get the same
		// from the registry (Spec.Direction)
		c.Directed = true
	}
	if dataset == "actor" || dataset == "film" {
		// GGCN's rerun of the GCNII code on film (Yujun-Yan/
		// Heterophily_and_oversmoothing, table_1_GCNII_and_GCNII2.sh: 2
		// layers, hidden 16, dropout 0, weight decay 1e-3, α 0.5, λ 0.5),
		// which beats Wisconsin's borrowed setting on validation (splits
		// 0-2: 39.1 against 37.7; docs/notes/issue24-research.md)
		c.Layers, c.Hidden, c.Dropout, c.WeightDecay, c.Alpha, c.Lambda = 2, 16, 0, 1e-3, 0.5, 0.5
	}
	return c
}

func gcniiSpec() Spec {
	return newSpec("gcnii", "GCNII: deep GCN with initial residual and identity mapping (Chen et al., 2020)", OutLinks, GCNIIPreset, NewGCNII)
}

// GCNII is Chen et al.'s "Simple and deep graph convolutional networks"
// (ICML 2020), as in the authors' code (github.com/chennnM/GCNII, model.py):
//
//	H⁽⁰⁾ = ReLU(dropout(X)·W_in + b_in)
//	S⁽ˡ⁾ = (1−α)·Â·dropout(H⁽ˡ⁻¹⁾) + α·H⁽⁰⁾
//	H⁽ˡ⁾ = ReLU(β_l·S⁽ˡ⁾·W⁽ˡ⁾ + (1−β_l)·S⁽ˡ⁾)                          "gcnii"
//	H⁽ˡ⁾ = ReLU(β_l·[Â·dropout(H⁽ˡ⁻¹⁾) ‖ H⁽⁰⁾]·W⁽ˡ⁾ + (1−β_l)·S⁽ˡ⁾)      "gcnii*"
//	ŷ    = dropout(H⁽ᴸ⁾)·W_out + b_out
//
// with β_l = log(λ/l + 1) and Â = D̃^{-1/2}(A+I)D̃^{-1/2}. In "gcnii*" the
// weight is 2h×h, i.e. separate weights W₁, W₂ for the propagated and the
// initial term, without the (1−α), α factors inside the product (the
// authors' code; the paper's equation keeps them). Convolution weights are
// U(±1/√h) as in the authors' reset_parameters; the linear layers are
// PyTorch-default.
type GCNII struct {
	data    *Data
	cfg     *GCNIIConfig
	in, out *nn.Linear
	ws      []*autograd.Var
	adj     *tensor.CSR // Â, or the directed normalisation (Directed)
}

// Compile-time checks of the interfaces GCNII and its config implement.
var (
	_ Model  = (*GCNII)(nil)
	_ Config = (*GCNIIConfig)(nil)
)

// NewGCNII builds GCNII with cfg.Layers convolutions.
func NewGCNII(d *Data, c *GCNIIConfig, g *rng.RNG) (*GCNII, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	m := &GCNII{data: d, cfg: c, adj: propagation(d, c.Directed)}
	m.in = nn.NewLinear("fc_in", d.X.Cols(), c.Hidden, true, g)
	rows := c.Hidden
	if c.Variant == "gcnii*" {
		rows = 2 * c.Hidden
	}
	nw := c.Layers
	if c.ShareWeights {
		nw = 1
	}
	bound := 1 / math.Sqrt(float64(c.Hidden))
	for l := 0; l < nw; l++ {
		w := tensor.NewDense(rows, c.Hidden)
		nn.Uniform(w, -bound, bound, g)
		m.ws = append(m.ws, autograd.NewParam(fmt.Sprintf("conv%d.W", l+1), w))
	}
	m.out = nn.NewLinear("fc_out", c.Hidden, d.Graph.NumClasses, true, g)
	return m, nil
}

// Params returns the input layer, the convolution weights and the output layer.
func (m *GCNII) Params() []*autograd.Var {
	ps := append([]*autograd.Var{}, m.in.Params()...)
	ps = append(ps, m.ws...)
	return append(ps, m.out.Params()...)
}

// Forward computes the logits; the embedding is H⁽ᴸ⁾.
func (m *GCNII) Forward(t *autograd.Tape) Output {
	c := m.cfg
	p, alpha := c.Dropout, float32(c.Alpha)
	h0 := t.ReLU(m.in.ForwardInput(t, nn.InputFromFeatures(t, m.data.X), p))
	ah0 := t.Scale(h0, alpha)
	h := h0
	for l := 1; l <= c.Layers; l++ {
		beta := float32(math.Log(c.Lambda/float64(l) + 1))
		w := m.ws[0]
		if !c.ShareWeights {
			w = m.ws[l-1]
		}
		hi := t.SpMM(m.adj, t.Dropout(h, p))
		// fused a·x + b·y: the same bits as Scale and Add, fewer buffers
		// (ah0 enters with factor 1, so its gradient is summed over the
		// layers before the one scaling by α, as with Add)
		s := t.AddScaled(hi, 1-alpha, ah0, 1)
		var sw *autograd.Var
		if c.Variant == "gcnii*" {
			// [hi ‖ h0]·W, the bits of ConcatCols then MatMul without the
			// concatenation's gradient buffer
			sw = t.ConcatMatMul(w, hi, h0)
		} else {
			sw = t.MatMul(s, w)
		}
		// ReLU(AddScaled(...)) fused: the same bits, one buffer and one
		// pass over memory fewer each way
		h = t.ReLUAddScaled(sw, beta, s, 1-beta)
	}
	return Output{Logits: m.out.Forward(t, t.Dropout(h, p)), Embedding: h}
}
