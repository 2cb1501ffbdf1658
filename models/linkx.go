package models

import (
	"slices"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// LINKXConfig holds LINKX's hyperparameters. Layers is the number of linear
// layers of the final MLP (the authors' num_layers); Dropout applies between
// them only, as in the authors' code.
type LINKXConfig struct {
	Common
}

// Validate reports the first out-of-range hyperparameter (see validate and
// the range tags).
func (c *LINKXConfig) Validate() error { return validate("linkx", c) }

// LINKXPreset returns LINKX's setting for a dataset. The authors tune LINKX
// on the Geom-GCN graphs over a grid (github.com/CUAI/Non-Homophily-Large-Scale,
// experiments/linkx_tuning.sh: hidden 64–512, final-MLP layers 1–4, lr 0.05,
// 0.01 or 0.002, dropout 0 or 0.5, one- or two-layer MLP_A and MLP_X) and
// publish only the best score per dataset, not the setting. We run the hidden
// × lr part of that grid per dataset with
//
//	pcgcn tune --model linkx --dataset D --grid hidden=64,256,512 --grid lr=0.05,0.01,0.002 --splits 0-2
//
// and take the point with the best mean validation accuracy (results/tune/;
// every offline dataset is in linkxTuned). The rest of the setting is
// fixed: a one-layer final MLP (the authors' architecture exactly, since
// their BatchNorm sits only between final-MLP layers; on Chameleon splits
// 0–2 it scored 67.0% against 63.8% for two layers without BatchNorm), the
// repository's default weight decay 1e-3 (parse.py) as PyTorch-style L2,
// dropout 0.5 (used only with --layers ≥ 2), and raw features. The
// authors' loader normalises nothing either, but their WebKB .mat files
// store the features already row-normalised (docs/notes/issue24-research.md),
// so on Cornell, Texas and Wisconsin the authors trained on normalised
// features; the main table trains both and keeps the one validation picks
// (raw there, by 15-20 points). Datasets not tuned get hidden
// 64, lr 0.01. The authors train 500 epochs with AdamW; our protocol (Adam,
// ≤1000 epochs, patience 200) is kept (`--set optimizer=adamw` changed
// nothing on Actor).
func LINKXPreset(dataset string) *LINKXConfig {
	hidden, lr := linkxTuned(dataset)
	return &LINKXConfig{Common: Common{Hidden: hidden, Layers: 1, Dropout: 0.5, LR: lr, WeightDecay: 1e-3}}
}

// linkxTuned returns the hidden size and learning rate `pcgcn tune` chose on
// validation for a dataset (splits 0–2), or hidden 64, lr 0.01 for a
// dataset not tuned.
func linkxTuned(dataset string) (hidden int, lr float64) {
	// dataset: hidden, lr; mean validation accuracy of that point vs hidden 64, lr 0.01
	tuned := map[string]struct {
		hidden int
		lr     float64
	}{
		"actor":     {512, 0.05},  // 35.46 vs 33.74
		"chameleon": {256, 0.002}, // 69.14 vs 68.72
		"cora":      {256, 0.002}, // 82.58 vs 82.33
		"citeseer":  {64, 0.002},  // 74.49 vs 74.15
		"cornell":   {512, 0.01},  // 87.57 vs 85.31
		"texas":     {64, 0.01},   // 88.14, tied with hidden 512, lr 0.002: the earlier grid point
		"wisconsin": {512, 0.002}, // 87.92 vs 87.50
		"squirrel":  {256, 0.002}, // 60.92 vs 58.69
	}
	if t, ok := tuned[dataset]; ok {
		return t.hidden, t.lr
	}
	return 64, 0.01
}

func linkxSpec() Spec {
	return newSpec("linkx", "LINKX: MLPs on adjacency rows and features, combined (Lim et al., 2021)", Symmetrised, LINKXPreset, NewLINKX)
}

// LINKX is the model of Lim et al., "Large Scale Learning on Non-Homophilous
// Graphs: New Benchmarks and Strong Simple Methods" (NeurIPS 2021), as in the
// authors' code (github.com/CUAI/Non-Homophily-Large-Scale, models.py, with
// one-layer MLP_A and MLP_X, their default):
//
//	h_A = A·W_A + b_A          (the rows of the raw 0/1 adjacency as input)
//	h_X = X·W_X + b_X
//	h   = ReLU([h_A ‖ h_X]·W + b + h_A + h_X)
//	logits = MLP_f(h)          (Layers linear layers, ReLU and dropout between)
//
// A is the symmetric adjacency without self-loops and without normalisation.
// All layers use PyTorch's default initialisation. With Layers ≥ 2 the
// authors' MLP_f also applies BatchNorm after each hidden ReLU; this
// implementation omits it (autograd.BatchNorm has no running statistics for
// evaluation, which PyTorch's BatchNorm1d uses), so it matches their code
// exactly only for Layers = 1 (the preset).
type LINKX struct {
	data *Data
	cfg  *LINKXConfig
	mlpA *nn.Linear
	mlpX *nn.Linear
	w    *nn.Linear
	fin  []*nn.Linear
	adj  *tensor.CSR
	rows trainRows // the training rows a training step computes
}

// Compile-time checks of the interfaces LINKX and its config implement.
var (
	_ Model  = (*LINKX)(nil)
	_ Config = (*LINKXConfig)(nil)
)

// NewLINKX builds LINKX.
func NewLINKX(d *Data, c *LINKXConfig, g *rng.RNG) (*LINKX, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	hid := c.Hidden
	m := &LINKX{data: d, cfg: c, adj: d.Graph.Adj}
	m.mlpA = nn.NewLinear("mlpA", d.Graph.N, hid, true, g)
	m.mlpX = nn.NewLinear("mlpX", d.X.Cols(), hid, true, g)
	m.w = nn.NewLinear("W", 2*hid, hid, true, g)
	m.fin = nn.NewStack("final", hid, hid, d.Graph.NumClasses, c.Layers, func(name string, in, out int) *nn.Linear {
		return nn.NewLinear(name, in, out, true, g)
	})
	return m, nil
}

// Params returns MLP_A, MLP_X, W and the final MLP's parameters.
func (m *LINKX) Params() []*autograd.Var {
	ps := append([]*autograd.Var{}, m.mlpA.Params()...)
	ps = append(ps, m.mlpX.Params()...)
	ps = append(ps, m.w.Params()...)
	return append(ps, nn.ParamsOf(m.fin)...)
}

// Forward computes the logits. Every node's logits depend on its own
// adjacency row and features only, so a training step (t.Training, with
// gradients recorded, on the whole graph) computes the rows of the training
// nodes only, the loss's rows, and leaves +0 in the others of Logits and
// Embedding (autograd.SpMMRows, MatMulRows, ConcatMatMulRows, AddBiasRows,
// ReLUAddRows, LINKXCombineRows, SpMMBiasRows): the same bits in every row the loss reads, and gradients
// that are the whole graph's bit for bit, since the other rows' gradient
// is zero (TestLINKXTrainingRowsMatchWholeGraph). Evaluation (t.Training
// false) and mini-batches compute every row.
func (m *LINKX) Forward(t *autograd.Tape) Output {
	if r := m.trainingRows(t); r != nil {
		return m.forwardRows(t, r)
	}
	return m.forwardAll(t)
}

// forwardAll computes every node's logits.
func (m *LINKX) forwardAll(t *autograd.Tape) Output {
	ha := m.mlpA.ForwardInput(t, nn.SparseInput(m.adj), 0)
	hx := m.mlpX.ForwardInput(t, nn.InputFromFeatures(t, m.data.X), 0)
	h := t.ReLU(t.Add(t.Add(m.w.Forward(t, t.ConcatCols(ha, hx)), ha), hx))
	emb := h
	for l, lin := range m.fin {
		if l > 0 {
			emb = t.ReLU(h)
			h = t.Dropout(emb, m.cfg.Dropout)
		}
		h = lin.Forward(t, h)
	}
	return Output{Logits: h, Embedding: emb}
}

// forwardRows is Forward's operations with every product computed on the
// rows r names only (the operations of nn.Linear's Forward and
// ForwardInput, without input dropout, as Forward has it).
func (m *LINKX) forwardRows(t *autograd.Tape, r *trainRows) Output {
	ha := spmmBiasRows(t, r.adj, m.mlpA)
	var hx *autograd.Var
	if r.x != nil {
		hx = spmmBiasRows(t, r.x, m.mlpX)
	} else {
		hx = biasRows(t, r, m.mlpX, t.MatMulRows(t.Const(m.data.X.Dense), m.mlpX.W, r.rows))
	}
	var h *autograd.Var
	if m.w.B != nil {
		// ReLU([h_A‖h_X]·W + b + h_A + h_X) in one operation on the training
		// rows (the bits of ReLUAddRows over ConcatMatMulRows, without their
		// n-row product and its n-row gradient)
		h = t.LINKXCombineRows(r.rows, m.w.W, m.w.B, ha, hx)
	} else {
		// [h_A‖h_X]·W: the training rows gathered straight into one compact
		// matrix (the bits of MatMulRows(ConcatColsRows(...)))
		p := t.ConcatMatMulRows(r.rows, m.w.W, ha, hx)
		h = t.ReLU(t.Add(t.Add(p, ha), hx))
	}
	emb := h
	for l, lin := range m.fin {
		if l > 0 {
			emb = t.ReLU(h)
			h = t.Dropout(emb, m.cfg.Dropout)
		}
		h = biasRows(t, r, lin, t.MatMulRows(h, lin.W, r.rows))
	}
	return Output{Logits: h, Embedding: emb}
}

// biasRows adds l's bias to the product h = x·W on r's rows only
// (autograd.AddBiasRows: Add's bits there, +0 elsewhere), then releases the
// product's buffer, as nn.Linear does.
func biasRows(t *autograd.Tape, r *trainRows, l *nn.Linear, h *autograd.Var) *autograd.Var {
	if l.B == nil {
		return h
	}
	out := t.AddBiasRows(r.rows, h, l.B)
	t.Release(h)
	return out
}

// spmmBiasRows is a·W + b on the rows k keeps, l's product of the sparse input k
// and its bias, in one n-row buffer (autograd.SpMMBiasRows: the bits of
// SpMMRows and then biasRows).
func spmmBiasRows(t *autograd.Tape, k *autograd.KeptRows, l *nn.Linear) *autograd.Var {
	if l.B == nil {
		return t.SpMMRows(k, l.W)
	}
	return t.SpMMBiasRows(k, l.W, l.B)
}

// trainRows are the rows of a training step: the training nodes in
// ascending order, and the adjacency and the sparse features with only
// those rows kept (autograd.KeepRows), made once for the Data and the
// adjacency they belong to.
type trainRows struct {
	data *Data
	a    *tensor.CSR // the adjacency they were made for
	rows []int32
	adj  *autograd.KeptRows
	x    *autograd.KeptRows // nil for dense features
}

// trainingRows returns the training step's rows, or nil when the pass is
// not a training step on the whole graph (evaluation, a mini-batch, which
// Rebind gives its own adjacency rows) or when the training nodes are all
// the nodes.
func (m *LINKX) trainingRows(t *autograd.Tape) *trainRows {
	d := m.data
	if !t.Training || t.NoGrad() || d.Rows != nil || len(d.Train) >= d.Graph.N {
		return nil
	}
	r := &m.rows
	if r.data != d || r.a != m.adj {
		rows := slices.Clone(d.Train)
		slices.Sort(rows)
		rows = slices.Compact(rows)
		*r = trainRows{data: d, a: m.adj, rows: rows, adj: autograd.KeepRows(m.adj, rows)}
		if d.X.Sparse != nil {
			r.x = autograd.KeepRows(d.X.Sparse, rows)
		}
	}
	return r
}
