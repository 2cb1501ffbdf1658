package nn

import (
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// GCNConv is the graph convolution of Kipf & Welling,
//
//	H′ = Â·dropout(H)·W + b,
//
// as PyTorch Geometric's GCNConv computes it: the product with W first, then
// the propagation, then the bias. W (in×out, named "<name>.W") is
// Glorot-uniform and b (1×out, "<name>.b") zero, as GCNConv's
// reset_parameters draws them. The propagation matrix is fixed when the
// layer is built (GCNConv's cached=True): normally the graph's Â, which the
// graph computes once (graph.Graph.AHat).
type GCNConv struct {
	// W is the in×out weight.
	W *autograd.Var
	// B is the 1×out bias.
	B *autograd.Var
	// Adj is the n×n propagation matrix (Â, or another normalisation).
	Adj *tensor.CSR
	// Agg, when set (a mini-batch with history), computes the propagation
	// in place of Adj.
	Agg Aggregator
}

// NewGCNConv returns a convolution from in to out features over adj,
// drawing W from g.
func NewGCNConv(name string, adj *tensor.CSR, in, out int, g *rng.RNG) *GCNConv {
	if in < 0 || out < 0 {
		panic(fmt.Sprintf("nn: NewGCNConv %q with negative size %d×%d", name, in, out))
	}
	w := tensor.NewDense(in, out)
	XavierUniform(w, 1, g)
	return &GCNConv{
		W:   autograd.NewParam(name+".W", w),
		B:   autograd.NewParam(name+".b", tensor.NewDense(1, out)),
		Adj: adj,
	}
}

// Params returns W and b.
func (c *GCNConv) Params() []*autograd.Var { return []*autograd.Var{c.W, c.B} }

// ForwardInput returns Â·(dropout(in)·W) + b, with dropout p on the input
// (a no-op unless t.Training); sparse input stays sparse.
func (c *GCNConv) ForwardInput(t *autograd.Tape, in Input, p float64) *autograd.Var {
	if c.Agg != nil {
		return t.Add(c.Agg.Aggregate(t, in.Dropout(t, p).MatMul(t, c.W), nil), c.B)
	}
	return t.Add(t.SpMM(c.Adj, in.Dropout(t, p).MatMul(t, c.W)), c.B)
}
