// Package graphtest is test support above graph: toy graphs in memory, for
// the tests of the packages that consume a graph.Graph (nn, models,
// minibatch, train, ...). graph's own tests, in package graph, cannot import
// it and keep their hand-built graphs beside them. Only tests import it.
package graphtest

import (
	"testing"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/tensor"
)

// Adj returns the undirected adjacency of n nodes from edges (any
// direction, duplicates and self-loops allowed), failing t on a bad edge.
func Adj(t testing.TB, n int, edges []graph.Edge) *tensor.CSR {
	t.Helper()
	adj, err := graph.UndirectedAdjacency(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	return adj
}

// New returns the validated graph name of len(y) nodes with labels y in
// classes classes, the undirected adjacency of edges, features x (dense,
// or CSR when mostly zeros, as graph.NewFeatures decides) and splits.
func New(t testing.TB, name string, y []int32, classes int, edges []graph.Edge, x *tensor.Dense, splits []graph.Split) *graph.Graph {
	t.Helper()
	g := &graph.Graph{Name: name, N: len(y), Adj: Adj(t, len(y), edges), X: graph.NewFeatures(x),
		Y: y, NumClasses: classes, Splits: splits}
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	return g
}
