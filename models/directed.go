package models

import (
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/tensor"
)

// propagation returns the normalised adjacency a convolution aggregates
// with: the data's Â, or, with directed set and a graph that keeps its
// links' direction (graph.Graph.Out: the *-directed datasets, the Geom-GCN
// text files), D̃^{-1/2}(A_out + I)D̃^{-1/2} with out-degrees
// (graph.DirectedGCNNorm), so that a node aggregates over the pages it
// links to, as the GCNII and GGCN authors' loaders build the Wikipedia
// graphs (docs/notes/issue24-research.md). Without a direction it is Â.
func propagation(d *Data, directed bool) *tensor.CSR {
	if directed && d.Graph.Out != nil {
		return graph.DirectedGCNNorm(d.Graph.Out)
	}
	return d.AHat
}
