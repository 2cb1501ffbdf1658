package graphtest

import (
	"testing"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestToy(t *testing.T) {
	for _, sparse := range []bool{false, true} {
		g := Toy(t, 30, sparse, 1)
		if g.N != 30 || g.NumClasses != 3 || (g.X.Sparse != nil) != sparse || len(g.Splits) != 1 {
			t.Fatalf("sparse %v: %d nodes, %d classes, sparse features %v, %d splits", sparse, g.N, g.NumClasses, g.X.Sparse != nil, len(g.Splits))
		}
		if h := graph.ComputeStats(g).EdgeHomophily; h < 0.5 {
			t.Errorf("sparse %v: edge homophily %.2f, want a homophilous graph", sparse, h)
		}
		if again := Toy(t, 30, sparse, 1); !testkit.EqualDense(g.X.ToDense(), again.X.ToDense()) || g.Adj.NNZ() != again.Adj.NNZ() {
			t.Errorf("sparse %v: the same seed draws another graph", sparse)
		}
	}
}

func TestAdj(t *testing.T) {
	if a := Adj(t, 3, []graph.Edge{{0, 1}, {1, 0}, {2, 2}}); a.NNZ() != 2 {
		t.Errorf("%d entries, want 2 (one link, both directions; the self-loop dropped)", a.NNZ())
	}
}
