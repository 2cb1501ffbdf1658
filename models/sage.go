package models

import (
	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// SAGEConfig holds GraphSAGE's hyperparameters.
type SAGEConfig struct {
	Common
	// Classic holds the options of the classic form (input_linear,
	// residual, norm, ffn, activation; see Classic), all off by default.
	// GraphSAGE is separated by construction (its root weight), so it has
	// no sep option.
	Classic
}

// Validate reports the first out-of-range hyperparameter (see validate and
// the range tags).
func (c *SAGEConfig) Validate() error {
	return validate("sage", c, func() error { return c.Classic.check(false) })
}

// SAGEPreset returns 2 layers of 64 units, dropout 0.5, lr 0.01, weight decay
// 5e-4 and row-normalised features for every dataset. This is our choice:
// neither the paper nor the Geom-GCN-split literature it copies its GraphSAGE
// row from publishes per-dataset settings we could find; it is the GCN/MLP
// setting of this package, so the three are compared on equal terms.
func SAGEPreset(string) *SAGEConfig {
	return &SAGEConfig{Common: gcnCommon()}
}

func sageSpec() Spec {
	return newSpec("sage", "GraphSAGE: mean aggregator with root weight, full batch (Hamilton et al., 2017)", Symmetrised, SAGEPreset, NewSAGE)
}

// SAGE is GraphSAGE with the mean aggregator (Hamilton et al., NeurIPS 2017)
// as PyTorch Geometric's SAGEConv with root weight computes it, full batch
// without neighbour sampling:
//
//	H⁽ˡ⁾_v = W_neigh⁽ˡ⁾·mean_{u∈N(v)} h⁽ˡ⁻¹⁾_u + b⁽ˡ⁾ + W_self⁽ˡ⁾·h⁽ˡ⁻¹⁾_v
//
// (a node without neighbours aggregates zero), with ReLU between layers and
// dropout on every layer's input, the last layer giving the logits. N(v)
// excludes v. The "concat" form of the paper, W·[h_v ‖ mean h_u], is the same
// map with W = [W_self; W_neigh]; PyG, like us, puts the bias on the neighbour
// side only and does not L2-normalise the outputs by default. Weights and bias
// are initialised like torch.nn.Linear.
//
// Source: Hamilton, Ying & Leskovec, "Inductive Representation Learning on
// Large Graphs", NeurIPS 2017 (Algorithm 1, mean aggregator); PyG SAGEConv.
type SAGE struct {
	data  *Data
	cfg   *SAGEConfig
	convs []*nn.SAGEConv
	body  *classicBody // the classic form instead of convs (InputLinear)
}

// Compile-time checks of the interfaces SAGE and its config implement.
var (
	_ Model  = (*SAGE)(nil)
	_ Config = (*SAGEConfig)(nil)
)

// NewSAGE builds GraphSAGE with cfg.Layers layers.
func NewSAGE(d *Data, c *SAGEConfig, g *rng.RNG) (*SAGE, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	mean := sageMeanAdjacency(d.Graph.Adj)
	if c.InputLinear {
		body := newClassicBody(&c.Classic, &c.Common, "relu", d.X.Cols(), d.Graph.NumClasses, g, func(string, int) aggregator {
			return &sageAgg{mean: mean}
		})
		return &SAGE{data: d, cfg: c, body: body}, nil
	}
	convs := nn.NewStack("conv", d.X.Cols(), c.Hidden, d.Graph.NumClasses, c.Layers, func(name string, in, out int) *nn.SAGEConv {
		return nn.NewSAGEConv(name, mean, in, out, g)
	})
	return &SAGE{data: d, cfg: c, convs: convs}, nil
}

// sageMeanAdjacency returns D⁻¹A for an adjacency without self-loops (rows of
// isolated nodes are empty). It is not symmetric and not marked so.
func sageMeanAdjacency(adj *tensor.CSR) *tensor.CSR {
	val := make([]float32, adj.NNZ())
	for i := 0; i < adj.Rows; i++ {
		a, b := adj.RowPtr[i], adj.RowPtr[i+1]
		var deg float64
		for k := a; k < b; k++ {
			deg += float64(adj.Val[k])
		}
		for k := a; k < b; k++ {
			val[k] = float32(float64(adj.Val[k]) / deg)
		}
	}
	// the pattern is adj's, shared (a CSR is not modified once built): only
	// the values are new, and a memory-mapped adjacency stays on disk
	mean, err := tensor.NewCSR(adj.Rows, adj.Cols, adj.RowPtr, adj.ColIdx, val)
	if err != nil {
		panic("sage: invalid adjacency: " + err.Error())
	}
	return mean
}

// Params returns the layers' parameters.
func (m *SAGE) Params() []*autograd.Var {
	if m.body != nil {
		return m.body.Params()
	}
	return nn.ParamsOf(m.convs)
}

// Forward computes the logits.
func (m *SAGE) Forward(t *autograd.Tape) Output {
	x := nn.InputFromFeatures(t, m.data.X)
	if m.body != nil {
		return m.body.Forward(t, x)
	}
	act := func(v *autograd.Var) *autograd.Var { return activate(t, m.cfg.Activation, "relu", v) }
	if m.cfg.Activation == "" || m.cfg.Activation == "relu" {
		act = t.ReLU
	}
	h, emb := nn.Stack(t, m.convs, x, m.cfg.Dropout, act)
	return Output{Logits: h, Embedding: emb}
}
