package synth

import (
	"fmt"
	"math"

	"github.com/pcgcn/pcgcn/graphio"
	"github.com/pcgcn/pcgcn/rng"
)

// SplitRoles fills roles (length n) with the nodes' parts in split s: per
// class, a random TrainFrac of the nodes (rounded) train, ValFrac
// validation and the rest test, from a generator seeded by (seed, s). All
// K splits are computed on the first call and kept (K bytes per node).
func (g *Generated) SplitRoles(s int, roles []graphio.Role) {
	if g.roles == nil {
		g.roles = make([][]graphio.Role, g.cfg.Splits)
		scratch := make([]int32, 0, g.start[1]+1)
		for k := range g.roles {
			g.roles[k] = g.stratified(k, scratch)
		}
	}
	copy(roles, g.roles[s])
}

// partSizes returns the train and validation counts of a class of size
// nodes (the rest is test).
func (g *Generated) partSizes(size int) (tr, va int) {
	tr = int(math.Round(g.cfg.TrainFrac * float64(size)))
	va = min(int(math.Round(g.cfg.ValFrac*float64(size))), size-tr)
	return tr, va
}

// checkSplitSizes rejects fractions that leave a part of every split empty
// (the sizes depend only on the class sizes, not on the draw).
func (g *Generated) checkSplitSizes() error {
	var tr, va, te int
	for c := range g.cfg.Classes {
		size := g.start[c+1] - g.start[c]
		a, b := g.partSizes(size)
		tr, va, te = tr+a, va+b, te+size-a-b
	}
	if tr == 0 || va == 0 || te == 0 {
		return fmt.Errorf("csbm: %d nodes split %v/%v/rest per class leave an empty part (train %d, val %d, test %d)", g.cfg.Nodes, g.cfg.TrainFrac, g.cfg.ValFrac, tr, va, te)
	}
	return nil
}

// stratified draws split k.
func (g *Generated) stratified(k int, scratch []int32) []graphio.Role {
	r := rng.New(g.split ^ uint64(k)*0x9e3779b97f4a7c15)
	out := make([]graphio.Role, g.cfg.Nodes)
	for c := range g.cfg.Classes {
		nodes := append(scratch[:0], g.members[g.start[c]:g.start[c+1]]...)
		r.Shuffle(len(nodes), func(i, j int) { nodes[i], nodes[j] = nodes[j], nodes[i] })
		tr, va := g.partSizes(len(nodes))
		for i, v := range nodes {
			switch {
			case i < tr:
				out[v] = graphio.RoleTrain
			case i < tr+va:
				out[v] = graphio.RoleVal
			default:
				out[v] = graphio.RoleTest
			}
		}
	}
	return out
}

// NPYGraph returns g as the writer's description: labels, the m sampled
// edges, the features and the splits.
func (g *Generated) NPYGraph() graphio.NPYGraph {
	return graphio.NPYGraph{
		Labels:     g.labels,
		NumEdges:   g.NumEdges(),
		Edges:      g.Edges,
		FeatureDim: g.cfg.Features,
		Features:   g.Features,
		NumSplits:  g.cfg.Splits,
		SplitRoles: g.SplitRoles,
	}
}

// Write writes g into dir in the binary user format (graphio.WriteNPYGraph:
// edges.npy, labels.npy, features.npy, splits.npz), atomically.
func (g *Generated) Write(dir string) error { return graphio.WriteNPYGraph(dir, g.NPYGraph()) }
