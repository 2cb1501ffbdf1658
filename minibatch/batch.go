package minibatch

import (
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/tensor"
)

// Batch is one training step's part of a graph.
type Batch struct {
	// Graph is the sampled subgraph: its nodes are Nodes, renumbered
	// 0..len(Nodes)-1 (the seeds first), with the sampled edges, the nodes'
	// features and labels, one split whose training nodes are the seeds, and
	// as its Â the sample's estimate of the whole graph's (Sample.AHat).
	Graph *graph.Graph
	// Nodes are the global ids of the subgraph's nodes.
	Nodes []int32
	// Seeds is the number of seeds (Nodes[:Seeds]).
	Seeds int
	// Rows are the seeds' rows of the whole graph's adjacency, columns over
	// all nodes (LINKX reads a node's adjacency row as its input); nil unless
	// asked for.
	Rows *tensor.CSR
}

// Build returns the batch of a sample from g: features and labels are
// gathered rows of g's (for memory-mapped features, the pages read are given
// back afterwards, so that only a batch's rows stay resident), the batch
// graph's Â is the sample's estimate of g's (graph.Graph.SetAHat), and with
// rows the seeds' rows of g.Adj over all nodes are kept too.
func Build(g *graph.Graph, s Sample, rows bool) *Batch {
	sub := &graph.Graph{
		Name:       g.Name,
		N:          len(s.Nodes),
		Adj:        s.Adj,
		X:          gatherFeatures(g.X, s.Nodes),
		Y:          make([]int32, len(s.Nodes)),
		NumClasses: g.NumClasses,
	}
	sub.SetAHat(s.AHat)
	g.X.ReleaseRows(0, g.X.Rows())
	for k, v := range s.Nodes {
		sub.Y[k] = g.Y[v]
	}
	train := make([]int32, s.Seeds)
	for k := range train {
		train[k] = int32(k)
	}
	sub.Splits = []graph.Split{{Train: train}}
	b := &Batch{Graph: sub, Nodes: s.Nodes, Seeds: s.Seeds}
	if rows {
		b.Rows = rowsOf(g.Adj, s.Nodes[:s.Seeds])
	}
	return b
}

// gatherFeatures copies the rows of x at nodes, keeping the storage kind.
func gatherFeatures(x graph.Features, nodes []int32) graph.Features {
	if x.Sparse != nil {
		return graph.Features{Sparse: rowsOf(x.Sparse, nodes)}
	}
	d := x.Dense
	out := tensor.NewDense(len(nodes), d.Cols)
	for k, v := range nodes {
		copy(out.Row(k), d.Row(int(v)))
	}
	return graph.Features{Dense: out}
}

// rowsOf returns the rows of a at idx, in that order, with all columns.
func rowsOf(a *tensor.CSR, idx []int32) *tensor.CSR {
	rowPtr := make([]int32, len(idx)+1)
	for k, v := range idx {
		rowPtr[k+1] = rowPtr[k] + a.RowPtr[v+1] - a.RowPtr[v]
	}
	col := make([]int32, 0, rowPtr[len(idx)])
	val := make([]float32, 0, rowPtr[len(idx)])
	for _, v := range idx {
		lo, hi := a.RowPtr[v], a.RowPtr[v+1]
		col = append(col, a.ColIdx[lo:hi]...)
		val = append(val, a.Val[lo:hi]...)
	}
	return &tensor.CSR{Rows: len(idx), Cols: a.Cols, RowPtr: rowPtr, ColIdx: col, Val: val}
}
