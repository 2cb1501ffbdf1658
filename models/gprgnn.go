package models

import (
	"math"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// GPRGNNConfig holds GPRGNN's hyperparameters. Layers is the number of linear
// layers of the MLP before the propagation (2 in the authors' code).
type GPRGNNConfig struct {
	Common
	// K is the number of propagation steps (γ has K+1 entries).
	K int `json:"k" range:"≥0"`
	// Alpha is the teleport probability α of the PPR initialisation
	// γ_k = α(1−α)ᵏ, γ_K = (1−α)ᴷ.
	Alpha float64 `json:"alpha" range:"[0,1]"`
	// DPRate is the dropout rate applied to the MLP's output before the
	// propagation.
	DPRate float64 `json:"dprate" range:"[0,1)"`
}

// Validate reports the first out-of-range hyperparameter (see validate and
// the range tags).
func (c *GPRGNNConfig) Validate() error { return validate("gprgnn", c) }

// gprgnnPresets are (lr, α, weight decay, dprate) per dataset from the
// authors' github.com/jianhao2016/GPRGNN src/Reproduce_GPRGNN.sh: the dense
// 60/20/20 heterophily runs for chameleon, film (Actor), squirrel, texas and
// cornell, the sparse-split homophily runs for cora, citeseer and pubmed (the
// only values they publish for those graphs). Unset flags take the script's
// defaults (weight decay 5e-4, dprate 0.5).
var gprgnnPresets = map[string][4]float64{
	"cora":      {0.01, 0.1, 5e-4, 0.5},
	"citeseer":  {0.01, 0.1, 5e-4, 0.5},
	"pubmed":    {0.05, 0.2, 5e-4, 0.5},
	"chameleon": {0.05, 1.0, 0, 0.7},
	"actor":     {0.01, 0.9, 0, 0.5},
	"squirrel":  {0.05, 0.0, 0, 0.7},
	"texas":     {0.05, 1.0, 5e-4, 0.5},
	"cornell":   {0.05, 0.9, 5e-4, 0.5},
}

// GPRGNNPreset returns GPRGNN's setting for a dataset: the authors' per-dataset
// lr, α, weight decay and dprate (see gprgnnPresets) with their common
// defaults: 64 hidden units, dropout 0.5, K = 10, PPR initialisation,
// row-normalised features. Wisconsin, which the script does not list, takes
// Cornell's values (both WebKB graphs); the filtered Chameleon/Squirrel their
// parent's; Minesweeper and Tolokers Squirrel's; unknown datasets Cora's.
// The authors train ≤1000 epochs and stop when the validation loss exceeds
// the mean of the last 200; our protocol (patience 200 on validation
// accuracy) is kept. As in their code, γ takes no weight decay
// (GPRGNN.NoDecayParams, which train.NewOptimizer puts in a group of its
// own).
func GPRGNNPreset(dataset string) *GPRGNNConfig {
	p, ok := gprgnnPresets[dataset]
	if !ok {
		switch dataset {
		case "wisconsin":
			p = gprgnnPresets["cornell"]
		case "chameleon-filtered":
			p = gprgnnPresets["chameleon"]
		case "squirrel-filtered", "minesweeper", "tolokers":
			p = gprgnnPresets["squirrel"]
		default:
			p = gprgnnPresets["cora"]
		}
	}
	return &GPRGNNConfig{
		Common: Common{Hidden: 64, Layers: 2, Dropout: 0.5, LR: p[0], WeightDecay: p[2], NormalizeFeatures: true},
		K:      10, Alpha: p[1], DPRate: p[3],
	}
}

func gprgnnSpec() Spec {
	return newSpec("gprgnn", "GPRGNN: MLP then learnable generalized PageRank propagation (Chien et al., 2021)", Symmetrised, GPRGNNPreset, NewGPRGNN)
}

// GPRGNN is the generalized PageRank GNN of Chien, Peng, Li & Milenkovic,
// "Adaptive Universal Generalized PageRank Graph Neural Network" (ICLR 2021),
// as in the authors' code (github.com/jianhao2016/GPRGNN, src/GNN_models.py):
//
//	H = MLP(X) = ReLU(dropout(X)·W₁ + b₁) → dropout → ·W₂ + b₂   (n×c)
//	Z = Σ_{k=0..K} γ_k Âᵏ dropout_dprate(H)
//
// with Â = D̃^{-1/2}(A+I)D̃^{-1/2} and γ ∈ ℝ^{K+1} learnable, initialised as
// PPR: γ_k = α(1−α)ᵏ for k < K and γ_K = (1−α)ᴷ. The linear layers use
// PyTorch's default initialisation.
type GPRGNN struct {
	data  *Data
	cfg   *GPRGNNConfig
	ls    []*nn.Linear
	gamma *autograd.Var // 1×(K+1)
	aHat  *tensor.CSR
}

// Compile-time checks of the interfaces GPRGNN and its config implement.
var (
	_ Model   = (*GPRGNN)(nil)
	_ NoDecay = (*GPRGNN)(nil)
	_ Config  = (*GPRGNNConfig)(nil)
)

// NewGPRGNN builds GPRGNN.
func NewGPRGNN(d *Data, c *GPRGNNConfig, g *rng.RNG) (*GPRGNN, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	m := &GPRGNN{data: d, cfg: c, aHat: d.AHat()}
	m.ls = newMLP(d.X.Cols(), c.Hidden, d.Graph.NumClasses, c.Layers, g)
	m.gamma = autograd.NewParam("prop.gamma", gprPPR(c.K, c.Alpha))
	return m, nil
}

// gprPPR returns the 1×(K+1) PPR initialisation of γ.
func gprPPR(k int, alpha float64) *tensor.Dense {
	d := tensor.NewDense(1, k+1)
	for i := 0; i < k; i++ {
		d.Data[i] = float32(alpha * math.Pow(1-alpha, float64(i)))
	}
	d.Data[k] = float32(math.Pow(1-alpha, float64(k)))
	return d
}

// Params returns the MLP's parameters and γ.
func (m *GPRGNN) Params() []*autograd.Var { return append(nn.ParamsOf(m.ls), m.gamma) }

// NoDecayParams returns γ: the authors' optimiser applies no weight decay to
// the propagation coefficients.
func (m *GPRGNN) NoDecayParams() []*autograd.Var { return []*autograd.Var{m.gamma} }

// Forward computes the logits.
func (m *GPRGNN) Forward(t *autograd.Tape) Output {
	h, emb := nn.Stack(t, m.ls, nn.InputFromFeatures(t, m.data.X), m.cfg.Dropout, t.ReLU)
	x := t.Dropout(h, m.cfg.DPRate)
	z := t.Mul(x, t.SliceCols(m.gamma, 0, 1))
	for k := 1; k <= m.cfg.K; k++ {
		x = t.SpMM(m.aHat, x)
		z = t.Add(z, t.Mul(x, t.SliceCols(m.gamma, k, k+1)))
	}
	return Output{Logits: z, Embedding: emb}
}
