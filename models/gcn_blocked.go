package models

import (
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/tensor"
)

// LogitsBlocked evaluates GCN layer by layer in blocks of nodes (see
// BlockEvaluator): for each layer, one pass writes XW of every block into a
// store, a second computes Â·XW + b of every block from it (ReLU between
// layers) into the other store, the last layer into the logits. Evaluation
// holds two stores of n × max(hidden, classes) and a block's working set.
func (m *GCN) LogitsBlocked(t *autograd.Tape, b Blocks) (logits *tensor.Dense, err error) {
	if m.body != nil {
		return nil, fmt.Errorf("gcn: the classic form (input_linear): %w", ErrNoBlockedEval)
	}
	defer evalMode(t)()
	n := m.data.Graph.N
	rp := make([]int32, max(b.Size, 1)+1)
	xwS, hS, err := twoStores(b, n, widest(m.convs))
	if err != nil {
		return nil, err
	}
	defer func() { closeAll(&err, xwS, hS) }()
	last := len(m.convs) - 1
	for l, c := range m.convs {
		in := func(lo, hi int) nn.Input {
			if l == 0 {
				return inputRows(t, m.data.X, lo, hi, rp)
			}
			return nn.DenseInput(t.Const(rows(width(hS, c.W.Rows()), lo, hi)))
		}
		xw := width(xwS, c.W.Cols())
		b.each(t, n, func(lo, hi int) {
			copy(rows(xw, lo, hi).Data, in(lo, hi).MatMul(t, c.W).Value.Data)
			if l == 0 {
				m.data.X.ReleaseRows(lo, hi)
			}
			hS.Release(lo, hi)
			xwS.Release(lo, hi)
		})
		out := width(hS, c.W.Cols())
		if l == last {
			logits = tensor.NewDense(n, c.W.Cols())
			out = logits
		}
		b.each(t, n, func(lo, hi int) {
			h := t.Add(t.SpMM(csrRows(c.Adj, lo, hi, rp), t.Const(xw)), c.B)
			if l != last {
				h = t.ReLU(h)
			}
			copy(rows(out, lo, hi).Data, h.Value.Data)
			hS.Release(lo, hi)
			releaseRead(lo, b.Size, xwS, m.data.Graph)
		})
		xwS.Release(0, n)
	}
	return logits, nil
}

// widest returns the widest output of a stack's layers.
func widest[L interface{ Params() []*autograd.Var }](layers []L) int {
	w := 0
	for _, l := range layers {
		for _, p := range l.Params() {
			w = max(w, p.Cols())
		}
	}
	return w
}

// twoStores returns two stores of rows×cols, or none and the error.
func twoStores(b Blocks, rows, cols int) (RowStore, RowStore, error) {
	a, err := b.store(rows, cols)
	if err != nil {
		return nil, nil, err
	}
	c, err := b.store(rows, cols)
	if err != nil {
		closeAll(&err, a)
		return nil, nil, err
	}
	return a, c, nil
}

// width returns the store's first rows×cols values as an n×cols matrix
// (cols no wider than the store).
func width(s RowStore, cols int) *tensor.Dense {
	d := s.Dense()
	return &tensor.Dense{Rows: d.Rows, Cols: cols, Data: d.Data[:d.Rows*cols]}
}
