package synth

import (
	"github.com/pcgcn/pcgcn/graphio"
)

// NPYGraph returns g as the writer's description: labels, the m sampled
// edges, the features and the splits.
func (g *Generated) NPYGraph() graphio.NPYGraph {
	return graphio.NPYGraph{
		Labels:     g.labels,
		NumEdges:   g.NumEdges(),
		Edges:      g.Edges,
		FeatureDim: g.cfg.Features,
		Features:   g.Features,
		NumSplits:  len(g.splits),
		SplitRoles: graphio.SplitRolesOf(g.splits),
	}
}

// Write writes g into dir in the binary user format (graphio.WriteNPYGraph:
// edges.npy, labels.npy, features.npy, splits.npz), atomically.
func (g *Generated) Write(dir string) error { return graphio.WriteNPYGraph(dir, g.NPYGraph()) }
