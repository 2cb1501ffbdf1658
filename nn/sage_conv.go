package nn

import (
	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// SAGEConv is GraphSAGE's layer with the mean aggregator and a root weight,
// as PyTorch Geometric's SAGEConv computes it:
//
//	H′_v = W_neigh·mean_{u∈N(v)} h_u + b + W_self·h_v
//
// with the mean taken by a fixed matrix (D⁻¹A: row v averages v's
// neighbours, a node without neighbours aggregates zero). Its two linear
// maps are Linear layers named "<name>.lin_neigh" (with the bias) and
// "<name>.lin_self" (without), initialised like torch.nn.Linear.
type SAGEConv struct {
	// Neigh maps the neighbours' mean; it holds the layer's bias.
	Neigh *Linear
	// Self maps the node's own features; it has no bias.
	Self *Linear
	// Mean is the n×n averaging matrix D⁻¹A.
	Mean *tensor.CSR
	// Agg, when set (a mini-batch with history), computes the mean in
	// place of Mean.
	Agg Aggregator
}

// NewSAGEConv returns a layer from in to out features averaging with mean,
// drawing the neighbour side's parameters from g first, then the self side's.
func NewSAGEConv(name string, mean *tensor.CSR, in, out int, g *rng.RNG) *SAGEConv {
	return &SAGEConv{
		Neigh: NewLinear(name+".lin_neigh", in, out, true, g),
		Self:  NewLinear(name+".lin_self", in, out, false, g),
		Mean:  mean,
	}
}

// Params returns the neighbour side's parameters, then the self side's.
func (c *SAGEConv) Params() []*autograd.Var { return append(c.Neigh.Params(), c.Self.Params()...) }

// ForwardInput applies the layer to in with dropout p on it (a no-op unless
// t.Training). One product of the once-dropped input with [W_neigh W_self]
// serves both sides; the mean is taken of the neighbour half (mean and
// product commute).
func (c *SAGEConv) ForwardInput(t *autograd.Tape, in Input, p float64) *autograd.Var {
	xw := in.Dropout(t, p).MatMul(t, t.ConcatCols(c.Neigh.W, c.Self.W))
	out := c.Neigh.Out()
	var agg *autograd.Var
	if c.Agg != nil {
		agg = c.Agg.Aggregate(t, t.SliceCols(xw, 0, out), nil)
	} else {
		agg = t.SpMM(c.Mean, t.SliceCols(xw, 0, out))
	}
	return t.Add(t.Add(agg, c.Neigh.B), t.SliceCols(xw, out, 2*out))
}
