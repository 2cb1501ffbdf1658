package graphtest

import (
	"testing"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// Toy returns a homophilous graph of n nodes in 3 classes (node i in class
// i%3): each node links to 3 random nodes of its class and 1 of any. With
// sparse set the features are a 40-word bag of 3 words per node, each drawn
// from the class's block of words with probability 0.6 (stored CSR);
// otherwise they are 8 dense values, the one-hot label plus N(0, 0.8²)
// noise. Its one split trains on the even nodes, validates on node 1 and
// tests on node 3. A GCN learns it in a few epochs.
func Toy(t testing.TB, n int, sparse bool, seed uint64) *graph.Graph {
	t.Helper()
	const classes = 3
	g := rng.New(seed)
	y := make([]int32, n)
	byClass := make([][]int32, classes)
	for i := range y {
		y[i] = int32(i % classes)
		byClass[y[i]] = append(byClass[y[i]], int32(i))
	}
	var edges []graph.Edge
	for i := 0; i < n; i++ {
		same := byClass[y[i]]
		for k := 0; k < 3; k++ {
			edges = append(edges, graph.Edge{int32(i), same[g.IntN(len(same))]})
		}
		edges = append(edges, graph.Edge{int32(i), int32(g.IntN(n))})
	}
	var x *tensor.Dense
	if sparse {
		const words, block = 40, 10
		x = tensor.NewDense(n, words)
		for i := 0; i < n; i++ {
			for k := 0; k < 3; k++ {
				w := g.IntN(words)
				if g.Float64() < 0.6 {
					w = int(y[i])*block + g.IntN(block)
				}
				x.Set(i, w, 1)
			}
		}
	} else {
		x = tensor.NewDense(n, 8)
		for i := 0; i < n; i++ {
			for j := 0; j < 8; j++ {
				x.Set(i, j, float32(0.8*g.NormFloat64()))
			}
			x.Set(i, int(y[i]), x.At(i, int(y[i]))+1)
		}
	}
	var train []int32
	for i := 0; i < n; i += 2 {
		train = append(train, int32(i))
	}
	return New(t, "toy", y, classes, edges, x, []graph.Split{{Train: train, Val: []int32{1}, Test: []int32{3}}})
}
