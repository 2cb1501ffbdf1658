package models

import (
	"errors"
	"fmt"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/tensor"
)

// Batched is a model that trains on mini-batches (package minibatch, train
// with Options.Batch): Rebind moves it onto another Data over a graph with
// the same feature width and classes (a sampled batch, or the whole graph to
// evaluate), keeping its parameters; Hops is how many hops of neighbours a
// node's output reads, the number of fanouts a sampler needs (0: a node's
// own row only).
type Batched interface {
	Model
	Rebind(d *Data) error
	Hops() int
}

// Compile-time checks of the models with a mini-batch mode.
var (
	_ Batched = (*PCGCN)(nil)
	_ Batched = (*GCN)(nil)
	_ Batched = (*SAGE)(nil)
	_ Batched = (*MLP)(nil)
	_ Batched = (*LINKX)(nil)
)

// ErrNoBatchMode is returned for a mini-batch run of a model or a setting
// that has none.
var ErrNoBatchMode = errors.New("no mini-batch mode")

// checkRebind reports whether d can replace old: the same feature width and
// classes, so that every parameter keeps its shape.
func checkRebind(name string, old, d *Data) error {
	if d.X.Cols() != old.X.Cols() || d.Graph.NumClasses != old.Graph.NumClasses {
		return fmt.Errorf("%s: rebind to %d features and %d classes, built for %d and %d",
			name, d.X.Cols(), d.Graph.NumClasses, old.X.Cols(), old.Graph.NumClasses)
	}
	return nil
}

// Rebind moves GCN onto d (its layers convolve with d's Â, or its directed
// normalisation).
func (m *GCN) Rebind(d *Data) error {
	if err := checkRebind("gcn", m.data, d); err != nil {
		return err
	}
	adj := propagation(d, m.cfg.Directed)
	for l, c := range m.convs {
		c.Adj, c.Agg = adj, layerAgg(d, l)
	}
	m.data = d
	return nil
}

// layerAgg returns layer l's aggregator of d (Data.Agg), nil without one.
func layerAgg(d *Data, l int) nn.Aggregator {
	if l < len(d.Agg) {
		return d.Agg[l]
	}
	return nil
}

// Hops is the number of graph convolutions.
func (m *GCN) Hops() int { return len(m.convs) }

// Rebind moves GraphSAGE onto d (its layers average over d's neighbours).
func (m *SAGE) Rebind(d *Data) error {
	if err := checkRebind("sage", m.data, d); err != nil {
		return err
	}
	mean := sageMeanAdjacency(d.Graph.Adj)
	for l, c := range m.convs {
		c.Mean, c.Agg = mean, layerAgg(d, l)
	}
	m.data = d
	return nil
}

// Hops is the number of layers.
func (m *SAGE) Hops() int { return len(m.convs) }

// Rebind moves the MLP onto d.
func (m *MLP) Rebind(d *Data) error {
	if err := checkRebind("mlp", m.data, d); err != nil {
		return err
	}
	m.data = d
	return nil
}

// Hops is 0: an MLP reads a node's own features.
func (m *MLP) Hops() int { return 0 }

// Rebind moves LINKX onto d. Its MLP_A reads each node's adjacency row over
// all n nodes of the graph it was built on, so a batch's Data carries those
// rows (Data.Rows, n columns); the whole graph's Data reads its Adj.
func (m *LINKX) Rebind(d *Data) error {
	if err := checkRebind("linkx", m.data, d); err != nil {
		return err
	}
	adj := d.Graph.Adj
	if d.Rows != nil {
		adj = d.Rows
	}
	if adj.Cols != m.mlpA.W.Value.Rows || adj.Rows != d.Graph.N {
		return fmt.Errorf("linkx: adjacency rows %d×%d for %d nodes, built for %d columns", adj.Rows, adj.Cols, d.Graph.N, m.mlpA.W.Value.Rows)
	}
	m.adj, m.data = adj, d
	return nil
}

// Hops is 0: LINKX reads a node's own adjacency row and features.
func (m *LINKX) Hops() int { return 0 }

// Rebind moves PCGCN onto d: Â (or its directed normalisation) and the
// training nodes the prototypes and the consistency loss use are d's. In a
// batch the prototypes are then class means of H⁽⁰⁾ over the batch's seeds,
// an unbiased estimate of the whole training set's means (g is applied row
// by row), recomputed every step with its exact gradient; evaluation on the
// whole graph takes every training node, as full-batch training does. A
// class absent from a batch's seeds takes the learnable free prototype, as
// a class without training nodes does. The study switches that name nodes
// of the whole graph (uncontrolled, pin_true, pin_train) have no batch mode.
func (m *PCGCN) Rebind(d *Data) error {
	c := m.cfg
	if c.Uncontrolled > 0 || c.PinTrue > 0 || c.PinTrain {
		return fmt.Errorf("pcgcn: uncontrolled, pin_true and pin_train name nodes of the whole graph: %w", ErrNoBatchMode)
	}
	if err := checkRebind("pcgcn", m.data, d); err != nil {
		return err
	}
	nc := d.Graph.NumClasses
	if d.Agg != nil && len(d.Agg) != len(m.ws) {
		return fmt.Errorf("pcgcn: %d history aggregators for %d layers", len(d.Agg), len(m.ws))
	}
	m.data, m.labels, m.adj, m.agg = d, d.Graph.Y, propagation(d, c.Directed), d.Agg
	m.trainY = m.trainY[:0]
	counts := make([]int, nc)
	for _, i := range d.Train {
		m.trainY = append(m.trainY, d.Graph.Y[i])
		counts[d.Graph.Y[i]]++
	}
	m.anyMiss = false
	for j, n := range counts {
		m.present.Data[j], m.missing.Data[j] = 1, 0
		if n == 0 {
			m.present.Data[j], m.missing.Data[j] = 0, 1
			m.anyMiss = true
		}
	}
	// the free prototypes get a gradient only in a batch that misses a
	// class; the optimiser built on the whole training set does not step
	// them, so that gradient must not pile up
	zero(m.free.Grad)
	return nil
}

// zero clears a gradient buffer (nil: nothing to clear).
func zero(g *tensor.Dense) {
	if g != nil {
		clear(g.Data)
	}
}

// Hops is the number of PCGCN layers: each reads its neighbours once,
// through ÂH̄W and ÂS.
func (m *PCGCN) Hops() int { return len(m.ws) }

// NewBatchData prepares a batch's inputs with the feature treatment that
// whole chose for the whole graph (Data.Features): row normalisation is a
// function of each row, so a batch's rows get exactly the values they have
// in whole, while deciding it on the batch alone could flip with the rows a
// batch happens to hold (signed features that are non-negative by chance).
func NewBatchData(g *graph.Graph, split graph.Split, whole *Data) *Data {
	x := g.X
	if whole.Features == FeaturesRowNormalized || whole.Features == FeaturesSignedForced {
		x = x.RowNormalized()
	}
	return &Data{Graph: g, X: x, Train: split.Train, Val: split.Val, Test: split.Test, Features: whole.Features}
}
