package graph

import (
	"testing"

	"github.com/pcgcn/pcgcn/rng"
)

// benchEdges returns m random edges among n nodes.
func benchEdges(n, m int) []Edge {
	r := rng.New(1)
	es := make([]Edge, m)
	for k := range es {
		es[k] = Edge{int32(r.IntN(n)), int32(r.IntN(n))}
	}
	return es
}

// BenchmarkUndirectedAdjacency builds the adjacency of 1M nodes and 10M
// random edges, the size of the issue-27 cSBM (run with -benchtime=1x).
func BenchmarkUndirectedAdjacency(b *testing.B) {
	es := benchEdges(1_000_000, 10_000_000)
	b.ResetTimer()
	for b.Loop() {
		if _, err := UndirectedAdjacency(1_000_000, es); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTripletAdjacency is the construction UndirectedAdjacency
// replaced (tensor.FromTriplets), on the same edges, for comparison.
func BenchmarkTripletAdjacency(b *testing.B) {
	es := benchEdges(1_000_000, 10_000_000)
	b.ResetTimer()
	for b.Loop() {
		tripletAdjacency(1_000_000, es, true)
	}
}

// BenchmarkGCNNorm normalises the adjacency of 1M nodes and 10M random
// edges.
func BenchmarkGCNNorm(b *testing.B) {
	a, err := UndirectedAdjacency(1_000_000, benchEdges(1_000_000, 10_000_000))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		GCNNorm(a)
	}
}
