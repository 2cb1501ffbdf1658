package graph

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

// handGraph returns a graph of n nodes named "hand" with the undirected
// adjacency of edges (any direction, duplicates and self-loops allowed)
// and, when directed, their directed adjacency as Out; nothing else.
func handGraph(t testing.TB, n int, edges []Edge, directed bool) *Graph {
	t.Helper()
	adj, err := UndirectedAdjacency(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	g := &Graph{Name: "hand", N: n, Adj: adj}
	if directed {
		if g.Out, err = DirectedAdjacency(n, edges); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// labelledGraph builds a graph with only what the structural measures read:
// the adjacency and the labels.
func labelledGraph(t testing.TB, y []int32, classes int, edges []Edge) *Graph {
	t.Helper()
	g := handGraph(t, len(y), edges, false)
	g.Y, g.NumClasses = y, classes
	return g
}

// buildGraph makes a validated graph from an edge list (any direction,
// duplicates and self-loops allowed) with dense features.
func buildGraph(t *testing.T, y []int32, classes int, edges []Edge, x *tensor.Dense, splits []Split) *Graph {
	t.Helper()
	g := labelledGraph(t, y, classes, edges)
	g.X, g.Splits = Features{Dense: x}, splits
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	return g
}
