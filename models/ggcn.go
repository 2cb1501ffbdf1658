package models

import (
	"math"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// GGCNConfig holds GGCN's hyperparameters. Layers counts the signed graph
// convolutions (at least 2: input → hidden, Layers−2 hidden → hidden, hidden
// → classes), as the authors' --layer does.
type GGCNConfig struct {
	Common `range:"layers≥2"`
	// DecayRate is λ of the decaying residual weight log(λ/k^Exponent + 1).
	DecayRate float64 `json:"decay_rate" range:"≥0"`
	// Exponent is the exponent of the decaying residual weight (authors' default 3).
	Exponent float64 `json:"exponent"`
	// Directed propagates over the graph's directed edge list (each node
	// aggregates over the nodes it links to, degrees from out-links), as the
	// authors' loader does for the Geom-GCN edge files, when the graph has
	// one (graph.Graph.Out: the Geom-GCN text files and the *-directed
	// datasets; the npz files of Chameleon and Squirrel are symmetrised).
	Directed bool `json:"directed"`
}

// Validate reports the first out-of-range hyperparameter (see validate and
// the range tags).
func (c *GGCNConfig) Validate() error { return validate("ggcn", c) }

// ggcnPresets are the authors' per-dataset settings from
// github.com/Yujun-Yan/Heterophily_and_oversmoothing, table_1_GGCN.sh:
// layers, hidden, dropout, weight decay, decay rate. Where the script does not
// set an option the defaults of full-supervised.py apply (lr 0.01, dropout
// 0.5, decay_rate 1.0, exponent 3).
var ggcnPresets = map[string]struct {
	layers, hidden         int
	dropout, wd, decayRate float64
}{
	"cora":      {32, 16, 0.5, 1e-3, 0.9},
	"citeseer":  {10, 80, 0.5, 1e-7, 0.02},
	"pubmed":    {5, 32, 0.3, 1e-5, 1.1},
	"chameleon": {5, 32, 0.3, 1e-2, 0.8},
	"squirrel":  {2, 32, 0.5, 4e-3, 1.0},
	"actor":     {4, 32, 0, 7e-3, 1.2},
	"cornell":   {6, 16, 0.5, 1e-3, 0.7},
	"texas":     {2, 16, 0.4, 1e-3, 1.0},
	"wisconsin": {5, 16, 0, 6e-4, 1.0},
}

// GGCNPreset returns the authors' setting for a dataset (table_1_GGCN.sh),
// with row-normalised features as in their process.py. The filtered
// Chameleon/Squirrel variants use their parent's setting; minesweeper,
// tolokers and unknown datasets get Chameleon's (our choice: the mid-sized
// heterophilous graph). Their protocol (1500 epochs, patience 100 on
// validation loss) is replaced by ours (train.DefaultOptions).
func GGCNPreset(dataset string) *GGCNConfig {
	p, ok := ggcnPresets[globalPresetName(dataset)]
	if !ok {
		p = ggcnPresets["chameleon"]
	}
	return &GGCNConfig{
		Common: Common{Hidden: p.hidden, Layers: p.layers, Dropout: p.dropout, LR: 0.01, WeightDecay: p.wd,
			NormalizeFeatures: true},
		DecayRate: p.decayRate, Exponent: 3, Directed: true,
	}
}

// globalPresetName maps the extra benchmark graphs to the paper dataset whose
// published setting they use: the filtered variants to their parent, Actor's
// Geom-GCN name "film" to "actor", everything else to itself.
func globalPresetName(ds string) string {
	switch ds {
	case "chameleon-filtered":
		return "chameleon"
	case "squirrel-filtered":
		return "squirrel"
	case "film":
		return "actor"
	}
	return ds
}

func ggcnSpec() Spec {
	return newSpec("ggcn", "GGCN: signed, degree-corrected messages with decaying residuals (Yan et al., ICDM 2022)", OutLinks, GGCNPreset, NewGGCN)
}

// GGCN is the model of Yan et al., "Two sides of the same coin: heterophily
// and oversmoothing in graph convolutional neural networks" (ICDM 2022),
// following the authors' code (github.com/Yujun-Yan/Heterophily_and_oversmoothing,
// model.py, classes GGCN and GGCNlayer).
//
// One layer with input H, for the edges (i, j) of A (self-loops excluded):
//
//	Z     = H·W + b                                     (PyTorch-default Linear)
//	s_ij  = cos(Z_i, Z_j) = ⟨Z_i, Z_j⟩ / (‖Z_i‖‖Z_j‖)
//	r_ij  = Â_ii/Â_ij − 1 = √(d̃_j/d̃_i) − 1               (d̃ = degree + 1)
//	τ_ij  = softplus(a·r_ij + b₀)                        (degree correction; a, b₀ learnt, init 0.5, 0)
//	w_ij  = s_ij·Â_ij·τ_ij,  w⁺ = max(w, 0),  w⁻ = min(w, 0)
//	out   = softplus(σ)·(c₀·W⁺Z + c₁·W⁻Z + c₂·Z)         (c = softmax(θ), θ init 0; σ init 2)
//
// The network (Layers = L ≥ 2 such layers, conv₀ … conv_{L−1}):
//
//	X'   = dropout(X)                       (one mask shared by the two uses)
//	P    = ELU(X'·W_in + b_in)              (residual stream)
//	H    = conv₀(X')
//	for k = 1 … L−1:
//	    H = dropout(ELU(H))
//	    P = P + H               if k = 1
//	    P = P + η_k·H,  η_k = log(λ/(k+1)^e + 1)   otherwise  (λ = DecayRate, e = Exponent)
//	    H = conv_k(P)
//	logits = H
//
// Â is the GCN normalisation D̃^{-1/2}(A+I)D̃^{-1/2}. Differences from the
// authors' code, none of which changes the equations above: their dense
// layer computes the cosine with max(‖Z_i‖‖Z_j‖, 1e-9) in the denominator,
// ours divides each row by max(‖Z_i‖, 1e-9) (the same for every non-zero
// row); we propagate over the sparse adjacency (their GGCNlayer_SP, which
// they use for Pubmed) instead of n×n dense matrices; and our graphs are
// undirected, whereas their loader keeps the Geom-GCN edge files directed
// (row i = the pages i links to) for the WebKB/Wikipedia/Actor graphs.
// The equations are the same, but the last difference is the whole of
// GGCN's gap on Chameleon: run on the authors' directed out-link adjacency
// this implementation, unchanged, gets 72.0 test (validation 72.8) on splits
// 0–2 against 45.8 on the symmetrised graph; aggregating over in-links alone
// is as bad as the symmetrised graph (docs/results-discussion.md). The
// offline mirror holds Chameleon only symmetrised. Only the full model is
// provided (their ablation switches --no_degree, --no_sign, --no_decay are
// not).
type GGCN struct {
	data   *Data
	cfg    *GGCNConfig
	in     *nn.Linear // X → residual stream
	layers []*ggcnLayer

	adj   *tensor.CSR   // A without self-loops: the edges the messages use
	aVal  *tensor.Dense // nnz×1: Â_ij on A's entries
	ratio *tensor.Dense // nnz×1: Â_ii/Â_ij − 1 on A's entries
	// the edges grouped by equal ratio: a·r + b takes one value per group,
	// so the degree correction's softplus is computed once per group
	ratioRep *autograd.Repeats
}

// Compile-time checks of the interfaces GGCN and its config implement.
var (
	_ Model  = (*GGCN)(nil)
	_ Config = (*GGCNConfig)(nil)
)

// ggcnLayer holds one signed convolution's parameters.
type ggcnLayer struct {
	lin   *nn.Linear
	deg   *autograd.Var // 1×2: slope a and intercept b₀ of the degree correction
	coeff *autograd.Var // 1×3: logits of the (positive, negative, self) mix
	scale *autograd.Var // 1×1: σ, the layer's scale before softplus
}

// NewGGCN builds GGCN on d.
func NewGGCN(d *Data, c *GGCNConfig, g *rng.RNG) (*GGCN, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	m := &GGCN{data: d, cfg: c, adj: d.Graph.Adj}
	if c.Directed && d.Graph.Out != nil {
		m.adj = d.Graph.Out
	}
	nf, nc, hid := d.X.Cols(), d.Graph.NumClasses, c.Hidden
	m.layers = nn.NewStack("conv", nf, hid, nc, c.Layers, func(name string, in, out int) *ggcnLayer {
		deg := tensor.NewDense(1, 2)
		deg.Data[0] = 0.5
		scale := tensor.NewDense(1, 1)
		scale.Data[0] = 2
		return &ggcnLayer{
			lin:   nn.NewLinear(name+".lin", in, out, true, g),
			deg:   autograd.NewParam(name+".deg_coeff", deg),
			coeff: autograd.NewParam(name+".coeff", tensor.NewDense(1, 3)),
			scale: autograd.NewParam(name+".scale", scale),
		}
	})
	m.in = nn.NewLinear("input", nf, hid, true, g)
	m.aVal, m.ratio = ggcnEdgeConstants(m.adj)
	m.ratioRep = autograd.NewRepeats(m.ratio.Data)
	return m, nil
}

// ggcnEdgeConstants returns, on the entries of adj (no self-loops), Â_ij =
// 1/√(d̃_i d̃_j) and the degree ratio Â_ii/Â_ij − 1 = √(d̃_j/d̃_i) − 1, with
// d̃ the degree counting the self-loop.
func ggcnEdgeConstants(adj *tensor.CSR) (aVal, ratio *tensor.Dense) {
	n := adj.Rows
	deg := graph.SelfLoopDegrees(adj)
	aVal, ratio = tensor.NewDense(adj.NNZ(), 1), tensor.NewDense(adj.NNZ(), 1)
	for i := 0; i < n; i++ {
		for k := adj.RowPtr[i]; k < adj.RowPtr[i+1]; k++ {
			j := adj.ColIdx[k]
			aVal.Data[k] = float32(float64(adj.Val[k]) / math.Sqrt(deg[i]*deg[j]))
			ratio.Data[k] = float32((1/deg[i])/float64(aVal.Data[k]) - 1)
		}
	}
	return aVal, ratio
}

// Params returns the input layer's and every convolution's parameters.
func (m *GGCN) Params() []*autograd.Var {
	var ps []*autograd.Var
	for _, l := range m.layers {
		ps = append(ps, l.lin.Params()...)
		ps = append(ps, l.deg, l.coeff, l.scale)
	}
	return append(ps, m.in.Params()...)
}

// Forward computes the logits.
func (m *GGCN) Forward(t *autograd.Tape) Output {
	p := m.cfg.Dropout
	// the features are dropped once: both first layers read the same mask
	x := nn.InputFromFeatures(t, m.data.X).Dropout(t, p)
	prev := t.ELU(m.in.ForwardInput(t, x, 0), 1)
	h := m.conv(t, m.layers[0], m.layers[0].lin.ForwardInput(t, x, 0))
	for k, l := range m.layers[1:] {
		h = t.Dropout(t.ELU(h, 1), p)
		if k == 0 {
			prev = t.Add(h, prev)
		} else {
			eta := math.Log(m.cfg.DecayRate/math.Pow(float64(k+2), m.cfg.Exponent) + 1)
			prev = t.Add(t.Scale(h, float32(eta)), prev)
		}
		h = m.conv(t, l, l.lin.Forward(t, prev))
	}
	return Output{Logits: h, Embedding: prev}
}

// conv applies the signed, degree-corrected propagation of one layer to its
// transformed input z.
func (m *GGCN) conv(t *autograd.Tape, l *ggcnLayer, z *autograd.Var) *autograd.Var {
	zn := t.L2NormalizeRows(z, 1e-9)
	cos := t.SDDMM(m.adj, zn, zn)
	b := t.SliceCols(l.deg, 1, 2)
	// the same bits as Softplus: equal ratios give equal inputs; ratio·a
	// with a = deg[0] read in place (MulScalarCol: Mul and SliceCols' bits)
	tau := t.SoftplusRepeated(t.Add(t.MulScalarCol(t.Const(m.ratio), l.deg, 0), b), m.ratioRep)
	w := t.MulConstMul(cos, m.aVal, tau) // cos ⊙ Â ⊙ τ: Mul(Mul(...)) in one operation, the same bits
	pos := t.ReLU(w)
	neg := t.NegReLUNeg(w) // Neg(ReLU(Neg(w))) as one operation, the same bits
	c := t.Softmax(l.coeff)
	// each term times its mix coefficient, read in place from c
	out := t.Add(t.Add(
		t.MulScalarCol(t.SpMMEdges(m.adj, pos, z), c, 0),
		t.MulScalarCol(t.SpMMEdges(m.adj, neg, z), c, 1)),
		t.MulScalarCol(z, c, 2))
	// MulScalar: Mul by a 1×1 factor, its forward packed (the same bits)
	return t.MulScalar(out, t.Softplus(l.scale))
}
