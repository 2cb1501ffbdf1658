package models

import (
	"errors"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/tensor"
)

// ErrNoBlockedEval is wrapped by a BlockEvaluator whose configuration has no
// blocked evaluation (a switch naming nodes of the whole graph); the caller
// then evaluates on the whole graph at once.
var ErrNoBlockedEval = errors.New("no blocked evaluation for this configuration")

// BlockEvaluator is a model whose evaluation can run layer by layer, each
// layer computed for all nodes block by block from the previous layer's
// rows, so that evaluation holds a block's working set and two layers' rows
// (Blocks.Store) instead of the whole graph's activations. Its logits are
// those of Forward in evaluation mode, bit for bit: every row goes through
// the same chain of operations (the kernels' outputs do not depend on the
// number of rows they are given).
type BlockEvaluator interface {
	// LogitsBlocked returns the n×c logits of every node, computed on t
	// (reset per block; nothing recorded) in blocks of b.Size nodes.
	LogitsBlocked(t *autograd.Tape, b Blocks) (*tensor.Dense, error)
}

// Compile-time checks of the models with a blocked evaluation.
var (
	_ BlockEvaluator = (*PCGCN)(nil)
	_ BlockEvaluator = (*GCN)(nil)
	_ BlockEvaluator = (*SAGE)(nil)
)

// RowStore holds the rows of one layer during a blocked evaluation: in
// memory, or in a memory-mapped file when they do not fit (train's
// evaluation under a temporary directory).
type RowStore interface {
	// Dense is the n×w matrix of the rows.
	Dense() *tensor.Dense
	// Release says rows [lo, hi) are not read again soon: a file-backed
	// store gives their pages back (their content stays).
	Release(lo, hi int)
	// Close frees the store; Dense is invalid after it.
	Close() error
}

// Blocks says how a blocked evaluation runs.
type Blocks struct {
	// Size is the number of nodes per block (≥ 1).
	Size int
	// Store returns a store of rows×cols for a layer's rows; nil: in memory.
	Store func(rows, cols int) (RowStore, error)
}

// store returns a layer's store (MemoryRows when b.Store is nil).
func (b Blocks) store(rows, cols int) (RowStore, error) {
	if b.Store == nil {
		return MemoryRows(rows, cols), nil
	}
	return b.Store(rows, cols)
}

// each calls f for every block [lo, hi) of n rows, in order, resetting t
// before each.
func (b Blocks) each(t *autograd.Tape, n int, f func(lo, hi int)) {
	size := max(b.Size, 1)
	for lo := 0; lo < n; lo += size {
		t.Reset()
		f(lo, min(n, lo+size))
	}
	t.Reset()
}

// releaseEvery is how many blocks a pass that reads rows here and there
// (the neighbours' rows of a sparse product) goes through before it gives
// back the pages of what it read (releaseRead): often enough that a
// file-backed store or a mapped graph does not become resident whole,
// rarely enough that walking the whole mapping costs little.
const releaseEvery = 16

// releaseRead gives back, after every releaseEvery blocks of size rows, the
// pages of the store read at random and of g's mapped adjacency and Â.
func releaseRead(lo, size int, s RowStore, g *graph.Graph) {
	if (lo/max(size, 1))%releaseEvery == releaseEvery-1 {
		s.Release(0, s.Dense().Rows)
		g.ReleaseAdj()
	}
}

// memRows is a RowStore on the heap.
type memRows struct{ d *tensor.Dense }

// MemoryRows returns a RowStore of rows×cols on the heap.
func MemoryRows(rows, cols int) RowStore { return memRows{tensor.NewDense(rows, cols)} }

// Dense returns the rows.
func (m memRows) Dense() *tensor.Dense { return m.d }

// Release does nothing: the heap has no pages to give back.
func (m memRows) Release(int, int) {}

// Close does nothing: the collector frees the rows.
func (m memRows) Close() error { return nil }

// closeAll closes the stores, keeping the first error in err.
func closeAll(err *error, stores ...RowStore) {
	for _, s := range stores {
		if s == nil {
			continue
		}
		if e := s.Close(); e != nil && *err == nil {
			*err = e
		}
	}
}

// rows returns rows [lo, hi) of d as a matrix sharing its storage.
func rows(d *tensor.Dense, lo, hi int) *tensor.Dense {
	return &tensor.Dense{Rows: hi - lo, Cols: d.Cols, Data: d.Data[lo*d.Cols : hi*d.Cols]}
}

// csrRows returns rows [lo, hi) of a (all columns), sharing its column
// indices and values; rp is scratch for the rebased row pointer.
func csrRows(a *tensor.CSR, lo, hi int, rp []int32) *tensor.CSR {
	base := a.RowPtr[lo]
	rp = rp[:hi-lo+1]
	for i := range rp {
		rp[i] = a.RowPtr[lo+i] - base
	}
	end := a.RowPtr[hi]
	return &tensor.CSR{Rows: hi - lo, Cols: a.Cols, RowPtr: rp, ColIdx: a.ColIdx[base:end], Val: a.Val[base:end]}
}

// inputRows returns rows [lo, hi) of the features as a layer input on t
// (rp: scratch for sparse features' row pointer).
func inputRows(t *autograd.Tape, x graph.Features, lo, hi int, rp []int32) nn.Input {
	if x.Sparse != nil {
		return nn.SparseInput(csrRows(x.Sparse, lo, hi, rp))
	}
	return nn.DenseInput(t.Const(rows(x.Dense, lo, hi)))
}

// evalMode sets t for an evaluation pass and returns the function that
// restores it.
func evalMode(t *autograd.Tape) func() {
	train, noGrad, logits := t.Training, t.NoGrad(), t.LogitsOnly
	t.Training, t.LogitsOnly = false, true
	t.SetNoGrad(true)
	return func() { t.Training, t.LogitsOnly = train, logits; t.SetNoGrad(noGrad) }
}

// linearBlocks writes layer(x) (no dropout) into dst block by block,
// giving back the pages of x and dst it is done with.
func linearBlocks(t *autograd.Tape, b Blocks, layer nn.Layer, x graph.Features, dst RowStore, rp []int32) {
	d := dst.Dense()
	b.each(t, x.Rows(), func(lo, hi int) {
		copy(rows(d, lo, hi).Data, layer.ForwardInput(t, inputRows(t, x, lo, hi, rp), 0).Value.Data)
		x.ReleaseRows(lo, hi)
		dst.Release(lo, hi)
	})
}

// classMeans returns the c×d means of h's rows at idx by segment seg (a row
// of a segment without rows is zero), with autograd's SegmentMean of the
// gathered rows' arithmetic: float32 counts, sums in idx's order, then
// multiplied by the counts' inverses.
func classMeans(h *tensor.Dense, idx, seg []int32, numSeg int) *tensor.Dense {
	inv := make([]float32, numSeg)
	for _, s := range seg {
		if s >= 0 {
			inv[s]++
		}
	}
	for s, c := range inv {
		if c > 0 {
			inv[s] = 1 / c
		}
	}
	cols := h.Cols
	out := tensor.NewDense(numSeg, cols)
	od := out.Data
	for k, s := range seg {
		if s < 0 {
			continue
		}
		or := od[int(s)*cols : (int(s)+1)*cols]
		for j, v := range h.Row(int(idx[k])) {
			or[j] += v
		}
	}
	for s, f := range inv {
		for j := s * cols; j < (s+1)*cols; j++ {
			od[j] *= f
		}
	}
	return out
}
