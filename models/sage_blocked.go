package models

import (
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/tensor"
)

// LogitsBlocked evaluates GraphSAGE layer by layer in blocks of nodes (see
// BlockEvaluator): for each layer, one pass writes the neighbour half
// H·W_neigh of every block into a store; a second recomputes the block's
// H·[W_neigh W_self] (the same bits) for its self half and writes
// mean-aggregate + b + self (ReLU between layers) over the block's own input
// rows, which nothing reads after, the last layer into the logits.
// Evaluation holds two stores of n × max(hidden, classes) and a block's
// working set.
func (m *SAGE) LogitsBlocked(t *autograd.Tape, b Blocks) (logits *tensor.Dense, err error) {
	if m.body != nil {
		return nil, fmt.Errorf("sage: the classic form (input_linear): %w", ErrNoBlockedEval)
	}
	defer evalMode(t)()
	n := m.data.Graph.N
	rp := make([]int32, max(b.Size, 1)+1)
	nbS, hS, err := twoStores(b, n, widest(m.convs))
	if err != nil {
		return nil, err
	}
	defer func() { closeAll(&err, nbS, hS) }()
	last := len(m.convs) - 1
	for l, c := range m.convs {
		o := c.Neigh.Out()
		xw := func(lo, hi int) *autograd.Var {
			var in nn.Input
			if l == 0 {
				in = inputRows(t, m.data.X, lo, hi, rp)
			} else {
				in = nn.DenseInput(t.Const(rows(width(hS, c.Neigh.In()), lo, hi)))
			}
			return in.MatMul(t, t.ConcatCols(c.Neigh.W, c.Self.W))
		}
		nb := width(nbS, o)
		b.each(t, n, func(lo, hi int) {
			copy(rows(nb, lo, hi).Data, t.SliceCols(xw(lo, hi), 0, o).Value.Data)
			if l == 0 {
				m.data.X.ReleaseRows(lo, hi)
			}
			nbS.Release(lo, hi)
		})
		out := width(hS, o)
		if l == last {
			logits = tensor.NewDense(n, o)
			out = logits
		}
		b.each(t, n, func(lo, hi int) {
			self := t.SliceCols(xw(lo, hi), o, 2*o)
			agg := t.SpMM(csrRows(c.Mean, lo, hi, rp), t.Const(nb))
			h := t.Add(t.Add(agg, c.Neigh.B), self)
			if l != last {
				h = t.ReLU(h)
			}
			copy(rows(out, lo, hi).Data, h.Value.Data)
			if l == 0 {
				m.data.X.ReleaseRows(lo, hi)
			}
			hS.Release(lo, hi)
			releaseRead(lo, b.Size, nbS, m.data.Graph)
		})
		nbS.Release(0, n)
	}
	return logits, nil
}
