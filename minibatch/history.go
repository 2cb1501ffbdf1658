package minibatch

import (
	"fmt"
	"math"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/tensor"
)

// Propagation names the matrix a History's layers estimate the product
// with.
type Propagation int

const (
	// GCNNorm is Â = D̃^{-1/2}(A+I)D̃^{-1/2} (GCN, PCGCN's ÂH and ÂS); a
	// batch estimates it by Sample.AHat.
	GCNNorm Propagation = iota
	// MeanAgg is D⁻¹A, GraphSAGE's mean over the neighbours; a batch
	// estimates a row by the mean over the drawn neighbours.
	MeanAgg
)

// History holds historical embeddings for variance-reduced aggregation in
// mini-batches (VR-GCN: Chen, Zhu & Song, "Stochastic Training of Graph
// Convolutional Networks with Variance Reduction", ICML 2018: its control
// variate and the dropout-aware form CVD of its Section 4.2). For each
// layer it keeps the n×w matrix H̄ of the operand the layer propagates
// (PCGCN: the layer's input; GCN: HW; GraphSAGE: the neighbour half of HW)
// as a dropout-free pass last computed it for each node, and estimates the
// whole graph's P·Z̃ on a batch's rows (P the propagation matrix, Z̃ the
// operand after the layer's dropout, µ the same without any dropout) by
//
//	P̂′(Z̃ − µ) + P̂(µ − H̄) + P·H̄
//
// where P̂ is the sample's unbiased estimate of P (each drawn neighbour
// weighted by degree/drawn: Sample.AHat), P̂′ the same links with P's
// weights times √(degree/drawn) (so that the dropout noise, independent per
// node, gets the variance full batch gives it rather than the sample's),
// and P·H̄ is exact: each batch node's whole row of P over the history.
// Only µ − H̄, small once the history follows the weights, is sampled; with
// H̄ = µ and no dropout the estimate is P·Z exactly, for any sample.
//
// A step with history is: Bind the batch; a dropout-free forward pass of
// the model (the tape not in training mode), whose aggregations record µ
// and the constant P·H̄ − P̂·H̄ of each layer; the training step, whose
// aggregation is P̂·Z̃ (the gradient's path, as in VR-GCN) plus a constant
// that completes the estimate; Commit, which gives each layer's history
// the µ of the rows computed exactly (a node within L−l+1 hops of the seeds
// for the operand of layer l of L). Without the dropout-free pass (a
// training pass straight after Bind) the estimate is P̂′(Z̃ − Z) + P̂(Z − H̄)
// + P·H̄, Z the operand with the earlier layers' dropout (the layer's clean
// input, when the model gives it, else Z̃), all of it on the tape: the form
// the gradient check differentiates. Until Commit the history does not
// change, so a forward pass is a function of the parameters alone.
//
// Why VR-GCN rather than GNNAutoScale (Fey et al., ICML 2021): GAS reads
// every out-of-batch neighbour from the history and so needs every
// neighbour of a batch node exactly, on the batch's rows as on the
// history's; VR-GCN keeps the neighbour sampler and its batch graphs, and
// only adds the exact product P·H̄ on the rows that are computed. Both
// cost L×n×w floats of history; VR-GCN's estimate is unbiased for any
// history, GAS's is biased by the history's staleness.
//
// A History is used by one training loop, one batch at a time. Its stores
// are allocated at a layer's first batch and its scratch matrices grow to
// the largest batch, then are reused.
type History struct {
	prop            Propagation
	full            *tensor.CSR     // the whole graph's P (n×n)
	deg             []int32         // RowPtr of the whole graph's adjacency: degrees
	store           []*tensor.Dense // per layer: n×h, nil until the first push
	pending         []*tensor.Dense // per layer: the batch's rows for Commit (scratch)
	npend           []int           // per layer: rows pending
	mu              []*tensor.Dense // per layer: the mean pass's operand on the batch (scratch)
	haveMu          []bool          // per layer: mu is the bound batch's
	base            []*tensor.Dense // per layer: the mean pass's P·H̄ − Âs·H̄ (scratch)
	delta           *tensor.CSR     // Âs′ − Âs
	layers          []historyLayer  // per layer: its aggregator
	aggs            []nn.Aggregator // layers as aggregators, for models.Data
	batch           Sample          // the bound batch
	sample, dropped *tensor.CSR
	scratchPtr      []int32 // the exact rows of P, reused
	scratchCol      []int32
	scratchVal      []float32
	scratchDrop     []float32
	scratchDelta    []float32
	headers         [2]tensor.CSR // P̂′'s and P̂′ − P̂'s, rewritten per batch
}

// historyLayer is one layer's aggregator.
type historyLayer struct {
	h *History
	l int // 0-based layer
}

// NewHistory returns an empty history for a model of layers layers over
// the graph with adjacency adj (the sampler's) and whole-graph propagation
// matrix full (Â for GCNNorm, D⁻¹A for MeanAgg). The layers' stores are
// allocated at their first batch, n × the operand's width.
func NewHistory(adj, full *tensor.CSR, prop Propagation, layers int) (*History, error) {
	if full.Rows != adj.Rows || full.Cols != adj.Rows {
		return nil, fmt.Errorf("minibatch: history propagation %s for a graph of %d nodes", full.Shape(), adj.Rows)
	}
	if layers < 1 {
		return nil, fmt.Errorf("minibatch: history for %d layers, want ≥ 1", layers)
	}
	h := &History{prop: prop, full: full, deg: adj.RowPtr, store: make([]*tensor.Dense, layers),
		pending: make([]*tensor.Dense, layers), npend: make([]int, layers), base: make([]*tensor.Dense, layers),
		mu: make([]*tensor.Dense, layers), haveMu: make([]bool, layers)}
	h.layers = make([]historyLayer, layers)
	h.aggs = make([]nn.Aggregator, layers)
	for l := range h.layers {
		h.layers[l] = historyLayer{h: h, l: l}
		h.aggs[l] = &h.layers[l]
	}
	return h, nil
}

// Layers returns each layer's aggregator, first layer first.
func (h *History) Layers() []nn.Aggregator { return h.aggs }

// Bytes returns the memory the stores hold: L × n × h float32 once every
// layer has seen a batch.
func (h *History) Bytes() int64 {
	var b int64
	for _, s := range h.store {
		if s != nil {
			b += 4 * int64(len(s.Data))
		}
	}
	return b
}

// Bind makes s the batch the aggregators estimate on: the sampled matrix
// P̂ and its dropout form P̂′ are built from s.
func (h *History) Bind(s Sample) {
	h.batch = s
	clear(h.npend)
	clear(h.haveMu)
	n := len(s.Nodes)
	a := s.AHat
	switch h.prop {
	case GCNNorm:
		h.scratchDrop = append(h.scratchDrop[:0], a.Val...)
		for k := 0; k < n; k++ {
			f := h.dropScale(k)
			for e := a.RowPtr[k]; e < a.RowPtr[k+1]; e++ {
				if a.ColIdx[e] != int32(k) {
					h.scratchDrop[e] *= f
				}
			}
		}
		h.sample = a
		h.dropped = a.WithValuesInto(&h.headers[0], h.scratchDrop)
		h.scratchDelta = deltaOf(h.scratchDelta[:0], h.scratchDrop, a.Val)
		h.delta = a.WithValuesInto(&h.headers[1], h.scratchDelta)
	case MeanAgg:
		// the drawn links of s.AHat without its self-loops, each 1/drew
		rowPtr := make([]int32, n+1)
		col := make([]int32, 0, len(a.ColIdx))
		val := make([]float32, 0, len(a.ColIdx))
		drop := make([]float32, 0, len(a.ColIdx))
		for k := 0; k < n; k++ {
			if d := s.Drew[k]; d > 0 {
				w, f := float32(1/float64(d)), h.dropScale(k)
				for e := a.RowPtr[k]; e < a.RowPtr[k+1]; e++ {
					if a.ColIdx[e] != int32(k) {
						col, val, drop = append(col, a.ColIdx[e]), append(val, w), append(drop, w*f)
					}
				}
			}
			rowPtr[k+1] = int32(len(col))
		}
		h.sample = &tensor.CSR{Rows: n, Cols: n, RowPtr: rowPtr, ColIdx: col, Val: val}
		h.dropped = h.sample.WithValues(drop)
		h.delta = h.sample.WithValues(deltaOf(nil, drop, val))
	}
}

// dropScale is √(drew/degree) for local node k: the weight of its sampled
// dropout noise relative to P̂'s (1 when it drew every neighbour).
func (h *History) dropScale(k int) float32 {
	v := h.batch.Nodes[k]
	d := h.deg[v+1] - h.deg[v]
	if d == 0 || h.batch.Drew[k] == 0 {
		return 1
	}
	return float32(math.Sqrt(float64(h.batch.Drew[k]) / float64(d)))
}

// rowsWithin returns the number of batch nodes within hops hops of the
// seeds (all of them beyond the sampled hops).
func (h *History) rowsWithin(hops int) int {
	e := h.batch.HopEnds
	if hops < 0 {
		return 0
	}
	if hops >= len(e) {
		return len(h.batch.Nodes)
	}
	return e[hops]
}

// Aggregate implements nn.Aggregator for layer l: the estimate of P·z on
// the batch's rows (see History), keeping for Commit the rows computed
// exactly.
func (a *historyLayer) Aggregate(t *autograd.Tape, z, clean *autograd.Var) *autograd.Var {
	h := a.h
	L := len(h.layers)
	nodes := h.batch.Nodes
	rows, cols := z.Rows(), z.Cols()
	if rows != len(nodes) {
		panic(fmt.Sprintf("minibatch: history of layer %d got %d rows for a batch of %d nodes", a.l+1, rows, len(nodes)))
	}
	store := h.store[a.l]
	if store == nil || store.Cols != cols {
		store = tensor.NewDense(h.full.Rows, cols)
		h.store[a.l] = store
	}
	if clean == nil {
		clean = z
	}
	mu := h.mu[a.l]
	if t.Training && h.haveMu[a.l] && mu.Rows == rows && mu.Cols == cols {
		// the mean pass gave µ and base = P·H̄ − Âs·H̄: the estimate
		// Âs′(z − µ) + Âs(µ − H̄) + P·H̄ is Âs·z, through which z's
		// gradient flows, plus the constant base + (Âs′ − Âs)(z − µ)
		c := t.Alloc(rows, cols)
		copy(c.Data, h.base[a.l].Data)
		diff := t.Alloc(rows, cols)
		for i, v := range z.Value.Data {
			diff.Data[i] = v - mu.Data[i]
		}
		tensor.SpMM(t.Exec, 1, h.delta, diff, 1, c)
		return t.Add(t.SpMM(h.sample, z), t.Const(c))
	}
	// H̄ on the batch's rows
	old := t.Alloc(rows, cols)
	for k, v := range nodes {
		copy(old.Row(k), store.Row(int(v)))
	}
	// base = P·H̄ − Âs·H̄, P·H̄ on the rows layer l's outputs are read at
	// (within L−l hops, l counted from 1); the others are never read
	base := t.Alloc(rows, cols)
	tensor.SpMM(t.Exec, 1, h.exactRows(h.rowsWithin(L-1-a.l)), store, 0, base)
	tensor.SpMM(t.Exec, -1, h.sample, old, 1, base)
	out := t.Add(t.SpMM(h.sample, clean), t.Const(base))
	if clean != z {
		out = t.Add(t.SpMM(h.dropped, t.Sub(z, clean)), out)
	}
	if !t.Training { // the mean pass: z is µ, dropout-free
		mu = reshape(mu, rows, cols)
		h.mu[a.l] = mu
		copy(mu.Data, z.Value.Data)
		h.base[a.l] = reshape(h.base[a.l], rows, cols)
		copy(h.base[a.l].Data, base.Data)
		h.haveMu[a.l] = true
	}
	// the new values of the rows computed exactly, for Commit: the input
	// of layer l within L−l+1 hops
	m := h.rowsWithin(L - a.l)
	p := reshape(h.pending[a.l], m, cols)
	h.pending[a.l] = p
	copy(p.Data, clean.Value.Data[:m*cols])
	h.npend[a.l] = m
	return out
}

// Commit writes the rows the bound batch computed exactly into the history
// (once per step, after it).
func (h *History) Commit() {
	for l, m := range h.npend {
		store, p := h.store[l], h.pending[l]
		for k := range m {
			copy(store.Row(int(h.batch.Nodes[k])), p.Row(k))
		}
	}
	clear(h.npend)
}

// exactRows returns the batch's rows of the whole graph's P, columns over
// all nodes, the first m rows filled and the others empty.
func (h *History) exactRows(m int) *tensor.CSR {
	nodes := h.batch.Nodes
	p := h.full
	h.scratchPtr = append(h.scratchPtr[:0], 0)
	h.scratchCol, h.scratchVal = h.scratchCol[:0], h.scratchVal[:0]
	for k := range nodes {
		if k < m {
			v := nodes[k]
			lo, hi := p.RowPtr[v], p.RowPtr[v+1]
			h.scratchCol = append(h.scratchCol, p.ColIdx[lo:hi]...)
			h.scratchVal = append(h.scratchVal, p.Val[lo:hi]...)
		}
		h.scratchPtr = append(h.scratchPtr, int32(len(h.scratchCol)))
	}
	// a new header each time: a CSR caches checks and transposes per pattern
	return &tensor.CSR{Rows: len(nodes), Cols: p.Cols, RowPtr: h.scratchPtr, ColIdx: h.scratchCol, Val: h.scratchVal}
}

// MeanAdjacency returns D⁻¹A of a 0/1 adjacency without self-loops (an
// isolated node's row empty): the whole-graph propagation matrix of a
// MeanAgg history.
func MeanAdjacency(adj *tensor.CSR) *tensor.CSR {
	val := make([]float32, adj.NNZ())
	for i := 0; i < adj.Rows; i++ {
		lo, hi := adj.RowPtr[i], adj.RowPtr[i+1]
		for e := lo; e < hi; e++ {
			val[e] = float32(1 / float64(hi-lo))
		}
	}
	return &tensor.CSR{Rows: adj.Rows, Cols: adj.Cols, RowPtr: adj.RowPtr, ColIdx: adj.ColIdx, Val: val}
}

// reshape returns d as a rows×cols matrix, reusing its storage when it is
// large enough (nil: a new one).
func reshape(d *tensor.Dense, rows, cols int) *tensor.Dense {
	if d == nil || cap(d.Data) < rows*cols {
		return tensor.NewDense(rows, cols)
	}
	d.Rows, d.Cols, d.Data = rows, cols, d.Data[:rows*cols]
	return d
}

// deltaOf appends dropped − sampled, element by element, to dst.
func deltaOf(dst, dropped, sampled []float32) []float32 {
	for i, v := range dropped {
		dst = append(dst, v-sampled[i])
	}
	return dst
}
