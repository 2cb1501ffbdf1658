package models

import (
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// GloGNNConfig holds GloGNN's hyperparameters. Hidden is the width of the
// MLP's hidden layer; Layers must be 2 (the MLP is fc1 → ReLU → fc2; the
// depth of the global aggregation is NormLayers).
type GloGNNConfig struct {
	Common
	// Alpha weighs the Frobenius norm of Z (α).
	Alpha float64 `json:"alpha" range:"≥0"`
	// Beta weighs ‖Z − Σ_k w_k Pᵏ‖² (β).
	Beta float64 `json:"beta" range:"≥0"`
	// Gamma is the share of the MLP output H⁽⁰⁾ kept in every layer (γ < 1).
	Gamma float64 `json:"gamma" range:"[0,1)"`
	// Delta mixes the features and the adjacency rows at the input: δ·XW₁ + (1−δ)·PW₃.
	Delta float64 `json:"delta" range:"[0,1]"`
	// NormLayers is the number of global aggregation layers.
	NormLayers int `json:"norm_layers" range:"≥0"`
	// Orders is K, the number of adjacency powers P¹ … Pᴷ in the target of Z.
	Orders int `json:"orders" range:"≥1"`
}

// Validate reports the first out-of-range hyperparameter (see validate and
// the range tags), then checks layers and alpha+beta.
func (c *GloGNNConfig) Validate() error { return validate("glognn", c, c.checkLayersAndWeights) }

// checkLayersAndWeights checks that the MLP has its 2 layers and that the
// two regularisation weights are not both zero.
func (c *GloGNNConfig) checkLayersAndWeights() error {
	if c.Layers != 2 {
		return &OptionError{Key: "layers", Value: c.Layers, Want: "2 (the MLP has exactly 2 layers; set norm_layers for the aggregation depth)"}
	}
	if c.Alpha+c.Beta <= 0 {
		return fmt.Errorf("need alpha+beta > 0, got alpha %g and beta %g", c.Alpha, c.Beta)
	}
	return nil
}

// glognnPresets are the authors' GloGNN settings (norm_func_id 1,
// orders_func_id 2, hidden 64) from github.com/RecklessRonan/GloGNN,
// small-scale/run_glognn_sota_reproduce_small.sh: lr, dropout, weight decay,
// α, β, γ, δ, norm_layers, orders.
//
// One value is not theirs: Squirrel's δ. Their GloGNN script gives δ = 1
// (features only), with which the model never reads the adjacency rows and
// learns to make Z* ≈ I, so it scores at MLP level (validation 30.75 on
// splits 0–2, the same as norm_layers=0); their GloGNN++ script for Squirrel
// gives δ = 0, and their paper reports nearly the same accuracy for both
// (57.54 and 57.88). Choosing δ ∈ {0, 1} on validation only (pcgcn tune
// --grid delta=0,1 --splits 0-2; results/tune) picks δ = 0 (62.02 against
// 30.75), so the preset uses δ = 0.
var glognnPresets = map[string]struct {
	lr, dropout, wd, alpha, beta, gamma, delta float64
	normLayers, orders                         int
}{
	"cora":      {0.01, 0.8, 1e-5, 77, 1000, 0.8, 0.9, 2, 6},
	"citeseer":  {0.005, 0.9, 5e-5, 0, 1000, 0.8, 1, 3, 2},
	"pubmed":    {0.01, 0.5, 5e-5, 0, 2000, 0.8, 1, 1, 4},
	"chameleon": {0.01, 0, 5e-5, 0, 1, 0, 0, 2, 1},
	"squirrel":  {0.01, 0.8, 5e-5, 0, 1, 0, 0, 2, 1}, // δ = 0: see above
	"actor":     {0.01, 0, 1e-3, 0, 1000, 0.1, 1, 2, 6},
	"cornell":   {0.01, 0, 5e-5, 0, 1, 0, 1, 2, 1},
	"texas":     {0.01, 0, 5e-5, 10, 0.01, 0, 1, 1, 2},
	"wisconsin": {0.01, 0, 1e-5, 0.5, 0.5, 0, 1, 3, 5},
}

// GloGNNPreset returns the authors' setting for a dataset, with row-normalised
// features as in their main.py. The filtered Chameleon/Squirrel variants use
// their parent's setting; minesweeper, tolokers and unknown datasets get
// Chameleon's (our choice). Their protocol (2000 epochs, stopping when the
// validation loss exceeds its mean over the last 40–200 epochs, testing the
// last model) is replaced by ours (train.DefaultOptions).
func GloGNNPreset(dataset string) *GloGNNConfig {
	p, ok := glognnPresets[globalPresetName(dataset)]
	if !ok {
		p = glognnPresets["chameleon"]
	}
	return &GloGNNConfig{
		Common: Common{Hidden: 64, Layers: 2, Dropout: p.dropout, LR: p.lr, WeightDecay: p.wd,
			NormalizeFeatures: true},
		Alpha: p.alpha, Beta: p.beta, Gamma: p.gamma, Delta: p.delta, NormLayers: p.normLayers, Orders: p.orders,
	}
}

func glognnSpec() Spec {
	return newSpec("glognn", "GloGNN: closed-form global aggregation over all nodes (Li et al., ICML 2022)", Symmetrised, GloGNNPreset, NewGloGNN)
}

// GloGNN is the model of Li et al., "Finding global homophily in graph neural
// networks when meeting heterophily" (ICML 2022), following the authors'
// code (github.com/RecklessRonan/GloGNN, small-scale/main.py, class MLP_NORM
// with norm_func1 and order_func2: the GloGNN of their tables, not GloGNN++).
//
// With P = D̃⁻¹(A+I) the row-normalised adjacency with self-loops:
//
//	H⁽⁰⁾ = fc2(dropout(ReLU(δ·fc1(X) + (1−δ)·fc3(P))))      (n×c; fc3 reads P's rows)
//	H⁽ˡ⁾ = (1−γ)·Z*⁽ˡ⁾H⁽ˡ⁻¹⁾ + γ·H⁽⁰⁾,   l = 1 … NormLayers
//
// where Z* minimises ‖H − (1−γ)ZH − γH⁽⁰⁾‖² + α‖Z‖² + β‖Z − Σ_k w_k Pᵏ‖²:
//
//	Z* = [(1−γ)HHᵀ + βΣ_k w_k Pᵏ − γ(1−γ)H⁽⁰⁾Hᵀ]·[(1−γ)²HHᵀ + (α+β)I]⁻¹.
//
// Z* is n×n; it is never formed. By the Woodbury identity
// [(1−γ)²HHᵀ + (α+β)I]⁻¹ = ϵ(I − ϵH M⁻¹Hᵀ), ϵ = 1/(α+β), with the c×c matrix
// M = (1−γ)⁻²I + ϵHᵀH, and (I − ϵH M⁻¹Hᵀ)H = (1−γ)⁻²·H M⁻¹, so with
//
//	R = ϵ(1−γ)⁻¹·H M⁻¹        (n×c: the authors' "res", rewritten exactly)
//	T = HᵀR = ϵ(1−γ)⁻¹·HᵀH M⁻¹ (c×c)
//
// a layer is H⁽ˡ⁾ = (1−γ)·H T + β·Σ_{k=1..K} w_k PᵏR − γ(1−γ)·H⁽⁰⁾T + γ·H⁽⁰⁾,
// at the cost of c×c inverses and K sparse products. The order weights w
// (1×K, init 1/K) are learnt; α, β, γ, δ are fixed.
//
// Differences from the authors' code: they compute R as
// (1−γ)ϵH − (1−γ)ϵ²H M⁻¹HᵀH, which equals the form above exactly but
// loses digits to cancellation, harmless in their float64 and not in our
// float32, so we use the cancellation-free form (same function, same
// gradients). Their forward draws a dropout of X and then applies fc1 to the
// undropped X, so X is never dropped; we do the same. fc3 is created only
// when δ ≠ 1 (otherwise its output is multiplied by 0). Numbers are float32
// here, float64 there.
type GloGNN struct {
	data  *Data
	cfg   *GloGNNConfig
	fc1   *nn.Linear // features → hidden
	fc3   *nn.Linear // adjacency rows → hidden (nil when δ = 1)
	fc2   *nn.Linear // hidden → classes
	order *autograd.Var

	p   *tensor.CSR   // D̃⁻¹(A+I)
	eye *tensor.Dense // c×c identity scaled by (1−γ)⁻²
}

// Compile-time checks of the interfaces GloGNN and its config implement.
var (
	_ Model  = (*GloGNN)(nil)
	_ Config = (*GloGNNConfig)(nil)
)

// NewGloGNN builds GloGNN on d.
func NewGloGNN(d *Data, c *GloGNNConfig, g *rng.RNG) (*GloGNN, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	n, nc := d.Graph.N, d.Graph.NumClasses
	m := &GloGNN{data: d, cfg: c}
	m.fc1 = nn.NewLinear("fc1", d.X.Cols(), c.Hidden, true, g)
	m.fc2 = nn.NewLinear("fc2", c.Hidden, nc, true, g)
	if c.Delta != 1 {
		m.fc3 = nn.NewLinear("fc3", n, c.Hidden, true, g)
	}
	w := tensor.NewDense(1, c.Orders)
	for k := range w.Data {
		w.Data[k] = float32(1 / float64(c.Orders))
	}
	m.order = autograd.NewParam("orders_weight", w)
	m.p = randomWalkWithLoops(d.Graph.Adj)
	s := 1 / ((1 - c.Gamma) * (1 - c.Gamma))
	m.eye = tensor.NewDense(nc, nc)
	for i := 0; i < nc; i++ {
		m.eye.Data[i*nc+i] = float32(s)
	}
	return m, nil
}

// randomWalkWithLoops returns D̃⁻¹(A+I) for an adjacency without self-loops.
func randomWalkWithLoops(adj *tensor.CSR) *tensor.CSR {
	n := adj.Rows
	ts := make([]tensor.Triplet, 0, adj.NNZ()+n)
	for i := 0; i < n; i++ {
		deg := 1.0
		for k := adj.RowPtr[i]; k < adj.RowPtr[i+1]; k++ {
			deg += float64(adj.Val[k])
		}
		ts = append(ts, tensor.Triplet{Row: int32(i), Col: int32(i), Val: float32(1 / deg)})
		for k := adj.RowPtr[i]; k < adj.RowPtr[i+1]; k++ {
			ts = append(ts, tensor.Triplet{Row: int32(i), Col: adj.ColIdx[k], Val: float32(float64(adj.Val[k]) / deg)})
		}
	}
	return tensor.FromTriplets(n, n, ts)
}

// Params returns the MLP's parameters and the order weights.
func (m *GloGNN) Params() []*autograd.Var {
	ps := append([]*autograd.Var{}, m.fc1.Params()...)
	if m.fc3 != nil {
		ps = append(ps, m.fc3.Params()...)
	}
	ps = append(ps, m.fc2.Params()...)
	return append(ps, m.order)
}

// Forward computes the logits.
func (m *GloGNN) Forward(t *autograd.Tape) Output {
	c := m.cfg
	var h *autograd.Var
	if c.Delta != 0 {
		h = t.Scale(m.fc1.ForwardInput(t, nn.InputFromFeatures(t, m.data.X), 0), float32(c.Delta))
	}
	if m.fc3 != nil {
		xa := t.Scale(m.fc3.ForwardInput(t, nn.SparseInput(m.p), 0), float32(1-c.Delta))
		if h == nil {
			h = xa
		} else {
			h = t.Add(h, xa)
		}
	}
	emb := t.ReLU(h)
	h0 := m.fc2.Forward(t, t.Dropout(emb, c.Dropout))
	x := h0
	for l := 0; l < c.NormLayers; l++ {
		x = m.aggregate(t, x, h0)
	}
	return Output{Logits: x, Embedding: emb}
}

// aggregate is one global aggregation layer H ↦ (1−γ)Z*H + γH⁽⁰⁾.
func (m *GloGNN) aggregate(t *autograd.Tape, x, h0 *autograd.Var) *autograd.Var {
	c := m.cfg
	eps := 1 / (c.Alpha + c.Beta)
	g1 := 1 - c.Gamma
	gram := t.Gram(x)
	minv := t.MatInverse(t.Add(t.Scale(gram, float32(eps)), t.Const(m.eye)))
	res := t.Scale(t.MatMul(x, minv), float32(eps/g1))
	tmp := t.Scale(t.MatMul(gram, minv), float32(eps/g1))
	// Σ_k w_k Pᵏ R
	var sum *autograd.Var
	pk := res
	for k := 0; k < c.Orders; k++ {
		pk = t.SpMM(m.p, pk)
		term := t.Mul(pk, t.SliceCols(m.order, k, k+1))
		if sum == nil {
			sum = term
		} else {
			sum = t.Add(sum, term)
		}
	}
	out := t.Add(t.Scale(t.MatMul(x, tmp), float32(g1)), t.Scale(sum, float32(c.Beta)))
	if c.Gamma != 0 {
		out = t.Sub(out, t.Scale(t.MatMul(h0, tmp), float32(c.Gamma*g1)))
		out = t.Add(out, t.Scale(h0, float32(c.Gamma)))
	}
	return out
}
