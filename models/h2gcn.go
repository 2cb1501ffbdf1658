package models

import (
	"fmt"
	"math"
	"slices"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// H2GCNConfig holds H2GCN's hyperparameters. Common.Layers is the number K
// of propagation rounds (1 for H2GCN-1, 2 for H2GCN-2); Common.Dropout is the
// dropout before the classifier, the only dropout of the authors' network.
type H2GCNConfig struct {
	Common `range:"layers[1,8]"`
	// EgoReLU applies ReLU to the ego embedding r⁽⁰⁾ = XW_e (the "R" of the
	// authors' network setup "M64-R-T1-G-V-…"; their grid tries both).
	EgoReLU bool `json:"ego_relu"`
	// InputDropout is a dropout on the features before the embedding; the
	// authors use none (0), it is here for tuning.
	InputDropout float64 `json:"input_dropout" range:"[0,1)"`
}

// Validate reports the first out-of-range hyperparameter (see validate and
// the range tags).
func (c *H2GCNConfig) Validate() error { return validate("h2gcn", c) }

// H2GCNPreset returns H2GCN with k rounds as the authors set it up
// (GemsLab/H2GCN, h2gcn/models/H2GCN.py defaults and
// experiments/h2gcn/configs/real-geomgcn/h2gcn.json): 64 hidden units, Adam
// with lr 0.01, row-normalised features, and the three switches of the
// authors' grid (ReLU on the ego embedding or not, dropout 0 or 0.5 before
// the classifier, Keras l2 1e-5 or 5e-4, which is PyTorch-style weight decay
// 2e-5 or 1e-3 since l2(λ) adds λ·Σw² to the loss). The authors selected the
// grid point per dataset on validation accuracy without publishing the
// winners, so we ran the same grid with `pcgcn tune` on splits 0–2 and keep
// the validation winner per dataset (h2gcnTuned; results/tune). A dataset
// not tuned gets ReLU, dropout 0.5 and weight decay 2e-5, the authors'
// defaults. The authors' protocol (Geom-GCN splits, best validation
// accuracy) matches ours except for the epoch budget; ours is kept.
func H2GCNPreset(dataset string, k int) *H2GCNConfig {
	t := h2gcnTuned(dataset, k)
	return &H2GCNConfig{
		Common:  Common{Hidden: 64, Layers: k, Dropout: t.dropout, LR: 0.01, WeightDecay: t.weightDecay, NormalizeFeatures: true},
		EgoReLU: t.egoReLU,
	}
}

// h2gcnPoint is one point of the authors' H2GCN grid.
type h2gcnPoint struct {
	egoReLU     bool
	dropout     float64
	weightDecay float64
}

// h2gcnTuned returns the grid point `pcgcn tune --grid ego_relu=true,false
// --grid dropout=0,0.5 --grid weight_decay=2e-5,1e-3 --splits 0-2` ranked
// first on mean validation accuracy for H2GCN-k on a dataset (ties go to the
// earlier grid point), or the authors' defaults for a dataset not tuned.
func h2gcnTuned(dataset string, k int) h2gcnPoint {
	type key struct {
		dataset string
		k       int
	}
	// the winner's mean validation accuracy on splits 0–2 in the comment
	tuned := map[key]h2gcnPoint{
		{"texas", 1}:     {true, 0.5, 2e-5},  // 87.57, tied with no ReLU: the earlier point
		{"texas", 2}:     {true, 0.5, 2e-5},  // 90.40
		{"wisconsin", 1}: {true, 0, 2e-5},    // 85.83
		{"wisconsin", 2}: {true, 0, 2e-5},    // 85.42
		{"cornell", 1}:   {false, 0.5, 1e-3}, // 80.79
		{"cornell", 2}:   {false, 0.5, 1e-3}, // 80.79
		{"chameleon", 1}: {false, 0, 2e-5},   // 55.14
		{"chameleon", 2}: {true, 0, 2e-5},    // 58.07
		{"citeseer", 1}:  {false, 0.5, 1e-3}, // 78.18
		{"citeseer", 2}:  {false, 0.5, 1e-3}, // 78.69
		{"cora", 1}:      {false, 0.5, 2e-5}, // 87.56
		{"cora", 2}:      {false, 0.5, 1e-3}, // 88.61
		{"actor", 1}:     {true, 0.5, 1e-3},  // 37.31
		{"actor", 2}:     {false, 0.5, 1e-3}, // 37.23
		{"squirrel", 1}:  {false, 0, 2e-5},   // 36.52
		{"squirrel", 2}:  {false, 0, 2e-5},   // 38.08
	}
	if p, ok := tuned[key{dataset, k}]; ok {
		return p
	}
	return h2gcnPoint{egoReLU: true, dropout: 0.5, weightDecay: 2e-5}
}

func h2gcnSpec(k int) Spec {
	return newSpec(fmt.Sprintf("h2gcn-%d", k),
		fmt.Sprintf("H2GCN-%d: ego/neighbour separation, 1- and 2-hop, %d round(s) (Zhu et al., 2020)", k, k),
		Symmetrised, func(ds string) *H2GCNConfig { return H2GCNPreset(ds, k) }, NewH2GCN)
}

// H2GCN is Zhu et al.'s "Beyond homophily" network (NeurIPS 2020), as in the
// authors' TensorFlow code (github.com/GemsLab/H2GCN):
//
//	r⁽⁰⁾ = ReLU(X·W_e)                                  (ego embedding, no bias)
//	r⁽ᵏ⁾ = [Ā₁·r⁽ᵏ⁻¹⁾ ‖ Ā₂·r⁽ᵏ⁻¹⁾]                       k = 1..K
//	r    = [r⁽⁰⁾ ‖ r⁽¹⁾ ‖ … ‖ r⁽ᴷ⁾]                       (combination of all rounds)
//	ŷ    = dropout(r)·W_c                               (no bias)
//
// Ā₁ and Ā₂ are D^{-1/2}·D^{-1/2}-normalised, without self-loops: A₁ = A and
// A₂ = 1[(A+I)² > 0] − 1[A+I > 0], the nodes at distance exactly two (an
// isolated row stays zero). Neighbour aggregation has no weights and no
// non-linearity: the only parameters are W_e (Glorot-uniform, f×hidden) and
// W_c (Glorot-uniform, hidden·(2^{K+1}−1)×c), as Keras initialises them. The
// authors concatenate the rounds as [r⁽ᴷ⁾ ‖ r⁽⁰⁾ ‖ … ‖ r⁽ᴷ⁻¹⁾]; the order of
// the blocks only permutes the rows of W_c.
type H2GCN struct {
	data   *Data
	cfg    *H2GCNConfig
	a1, a2 *tensor.CSR
	we, wc *autograd.Var
	rounds []*autograd.Var // scratch of Forward (ConcatCols copies it)
}

// Compile-time checks of the interfaces H2GCN and its config implement.
var (
	_ Model  = (*H2GCN)(nil)
	_ Config = (*H2GCNConfig)(nil)
)

// NewH2GCN builds H2GCN with cfg.Layers rounds, computing the normalised 1-
// and 2-hop adjacencies of d.Graph.Adj.
func NewH2GCN(d *Data, c *H2GCNConfig, g *rng.RNG) (*H2GCN, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	m := &H2GCN{data: d, cfg: c}
	m.a1 = h2gcnSymNorm(d.Graph.Adj)
	m.a2 = h2gcnSymNorm(h2gcnTwoHop(d.Graph.Adj))
	we := tensor.NewDense(d.X.Cols(), c.Hidden)
	nn.XavierUniform(we, 1, g)
	m.we = autograd.NewParam("embed.W", we)
	width := c.Hidden * (1<<(c.Layers+1) - 1)
	wc := tensor.NewDense(width, d.Graph.NumClasses)
	nn.XavierUniform(wc, 1, g)
	m.wc = autograd.NewParam("classifier.W", wc)
	return m, nil
}

// Params returns W_e and W_c.
func (m *H2GCN) Params() []*autograd.Var { return []*autograd.Var{m.we, m.wc} }

// Forward computes the logits; the embedding is the combined r.
func (m *H2GCN) Forward(t *autograd.Tape) Output {
	r := nn.InputFromFeatures(t, m.data.X).Dropout(t, m.cfg.InputDropout).MatMul(t, m.we)
	if m.cfg.EgoReLU {
		r = t.ReLU(r)
	}
	rounds := append(m.rounds[:0], r)
	for k := 0; k < m.cfg.Layers; k++ {
		r = t.ConcatCols(t.SpMM(m.a1, r), t.SpMM(m.a2, r))
		rounds = append(rounds, r)
	}
	m.rounds = rounds
	emb := t.ConcatCols(rounds...)
	return Output{Logits: t.MatMul(t.Dropout(emb, m.cfg.Dropout), m.wc), Embedding: emb}
}

// h2gcnTwoHop returns the 0/1 pattern of the nodes at distance exactly two in the
// symmetric adjacency adj (no self-loops): j ≠ i with a common neighbour of i
// and not adjacent to i.
func h2gcnTwoHop(adj *tensor.CSR) *tensor.CSR {
	n := adj.Rows
	stamp := make([]int32, n) // stamp[j] == i+1: j already seen from row i
	rowPtr := make([]int32, n+1)
	var cols []int32
	for i := 0; i < n; i++ {
		mark := int32(i + 1)
		stamp[i] = mark
		for k := adj.RowPtr[i]; k < adj.RowPtr[i+1]; k++ {
			stamp[adj.ColIdx[k]] = mark
		}
		start := len(cols)
		for k := adj.RowPtr[i]; k < adj.RowPtr[i+1]; k++ {
			u := adj.ColIdx[k]
			for q := adj.RowPtr[u]; q < adj.RowPtr[u+1]; q++ {
				if j := adj.ColIdx[q]; stamp[j] != mark {
					stamp[j] = mark
					cols = append(cols, j)
				}
			}
		}
		slices.Sort(cols[start:])
		if len(cols) > math.MaxInt32 {
			panic("h2gcn: two-hop adjacency has more than 2³¹ entries")
		}
		rowPtr[i+1] = int32(len(cols))
	}
	vals := make([]float32, len(cols))
	for k := range vals {
		vals[k] = 1
	}
	a, err := tensor.NewCSR(n, n, rowPtr, cols, vals)
	if err != nil {
		panic("h2gcn: " + err.Error())
	}
	return a
}

// h2gcnSymNorm returns D^{-1/2}·a·D^{-1/2} for a symmetric non-negative a,
// with D its row sums (a zero row stays zero), marked symmetric.
func h2gcnSymNorm(a *tensor.CSR) *tensor.CSR {
	inv := make([]float64, a.Rows)
	for i := range inv {
		var s float64
		for k := a.RowPtr[i]; k < a.RowPtr[i+1]; k++ {
			s += float64(a.Val[k])
		}
		if s > 0 {
			inv[i] = 1 / math.Sqrt(s)
		}
	}
	vals := make([]float32, a.NNZ())
	for i := 0; i < a.Rows; i++ {
		for k := a.RowPtr[i]; k < a.RowPtr[i+1]; k++ {
			vals[k] = float32(float64(a.Val[k]) * inv[i] * inv[a.ColIdx[k]])
		}
	}
	out, err := tensor.NewCSR(a.Rows, a.Cols, a.RowPtr, a.ColIdx, vals)
	if err != nil {
		panic("h2gcn: " + err.Error())
	}
	return out.MarkSymmetric()
}
