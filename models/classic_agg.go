package models

import (
	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/tensor"
)

// The aggregations of the classic blocks (see Classic), one per model.
var (
	_ aggregator = (*gcnAgg)(nil)
	_ aggregator = (*sageAgg)(nil)
	_ aggregator = (*gatAgg)(nil)
)

// gcnAgg is GCN's aggregation: Â·h, or [h ‖ D^{-1/2}AD^{-1/2}·h] separated.
type gcnAgg struct {
	adj *tensor.CSR // Â, or the loop-free normalisation when sep
	sep bool
}

func (a *gcnAgg) Params() []*autograd.Var { return nil }

func (a *gcnAgg) Width(d int) int {
	if a.sep {
		return 2 * d
	}
	return d
}

func (a *gcnAgg) Aggregate(t *autograd.Tape, h *autograd.Var) *autograd.Var {
	if a.sep {
		return t.ConcatCols(h, t.SpMM(a.adj, h))
	}
	return t.SpMM(a.adj, h)
}

// sageAgg is GraphSAGE's: [h ‖ mean_{N(v)} h] (Platonov's SAGEModule,
// torch.cat([x, message])).
type sageAgg struct{ mean *tensor.CSR }

func (a *sageAgg) Params() []*autograd.Var { return nil }

func (a *sageAgg) Width(d int) int { return 2 * d }

func (a *sageAgg) Aggregate(t *autograd.Tape, h *autograd.Var) *autograd.Var {
	return t.ConcatCols(h, t.SpMM(a.mean, h))
}

// gatAgg is GAT's: multi-head attention on h·W (heads concatenated, plus
// the layer's bias) over N(v) ∪ {v}, or [h ‖ attention over N(v)]
// separated.
type gatAgg struct {
	layer *gatLayer
	sep   bool
}

func (a *gatAgg) Params() []*autograd.Var { return a.layer.Params() }

func (a *gatAgg) Width(d int) int {
	if a.sep {
		return 2 * d
	}
	return d
}

func (a *gatAgg) Aggregate(t *autograd.Tape, h *autograd.Var) *autograd.Var {
	att := a.layer.attend(t, t.MatMul(h, a.layer.w))
	if a.sep {
		return t.ConcatCols(h, att)
	}
	return att
}

// adjacencyPattern returns the 0/1 pattern of adj (no self-loops added).
func adjacencyPattern(adj *tensor.CSR) *tensor.CSR {
	val := make([]float32, adj.NNZ())
	for i := range val {
		val[i] = 1
	}
	p, err := tensor.NewCSR(adj.Rows, adj.Cols, append([]int32(nil), adj.RowPtr...), append([]int32(nil), adj.ColIdx...), val)
	if err != nil {
		panic("models: invalid adjacency: " + err.Error())
	}
	return p
}
