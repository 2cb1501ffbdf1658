package graph

import "fmt"

// Warnings describes what leaves a model trained on g unable to learn
// anything worth measuring: a single class (every prediction is right), no
// edges (a graph model sees each node's own features only), then
// LabelWarnings. It returns nil when there is nothing to say. train, tune
// and reproduce print it before training.
func (g *Graph) Warnings() []string {
	var out []string
	if ids := DistinctLabels(g.Y); len(ids) == 1 {
		out = append(out, fmt.Sprintf("every node has label %d: with one class every prediction is right, so the scores measure nothing (a classifier needs two classes or more)", ids[0]))
	}
	if g.Adj != nil && g.NumEdges() == 0 {
		out = append(out, "the graph has no edges: a graph model sees only each node's own features, as an MLP does")
	}
	return append(out, g.LabelWarnings()...)
}
