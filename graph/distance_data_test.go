package graph_test

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// mirror returns the datasets mirror (see internal/datatest).
func mirror(t *testing.T) string { return datatest.Mirror(t) }

// naiveSLD walks out from node i alone until it meets a training node of
// i's class: the definition, one node at a time.
func naiveSLD(g *graph.Graph, isTrain []bool, i int32) int32 {
	dist := map[int32]int32{i: 0}
	queue := []int32{i}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if isTrain[u] && g.Y[u] == g.Y[i] {
			return dist[u]
		}
		for _, v := range g.Adj.ColIdx[g.Adj.RowPtr[u]:g.Adj.RowPtr[u+1]] {
			if _, ok := dist[v]; !ok {
				dist[v] = dist[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return -1
}

// TestRealDataSLDAndHomophily checks, on split 0 of Cora and Chameleon, the
// multi-source SLD of every test node against a walk from that node alone,
// that training nodes are at 0, and that the mean node homophily over
// non-isolated nodes is graph.ComputeStats's.
func TestRealDataSLDAndHomophily(t *testing.T) {
	dir := mirror(t)
	for _, name := range []string{"cora", "chameleon"} {
		t.Run(name, func(t *testing.T) {
			g, err := datasets.Load(name, datasets.Options{DataDir: dir, CacheDir: t.TempDir(), Offline: true})
			if err != nil {
				t.Fatal(err)
			}
			sp := g.Splits[0]
			sld := graph.ShortestLabelDistance(g, sp.Train)
			isTrain := make([]bool, g.N)
			for _, i := range sp.Train {
				isTrain[i] = true
				if sld[i] != 0 {
					t.Errorf("%s: training node %d at SLD %d", name, i, sld[i])
				}
			}
			hist := map[int32]int{}
			for _, i := range sp.Test {
				if want := naiveSLD(g, isTrain, i); sld[i] != want {
					t.Fatalf("%s: test node %d: SLD %d, walk from the node gives %d", name, i, sld[i], want)
				}
				hist[sld[i]]++
			}
			h := graph.NodeHomophily(g)
			var sum float64
			var n int
			for _, v := range h {
				if !math.IsNaN(v) {
					sum += v
					n++
				}
			}
			st := graph.ComputeStats(g)
			if math.Abs(sum/float64(n)-st.NodeHomophily) > 1e-9 || g.N-n != st.Isolated {
				t.Errorf("%s: mean node homophily %v over %d nodes, stats %v with %d isolated", name, sum/float64(n), n, st.NodeHomophily, st.Isolated)
			}
			t.Logf("%s split 0: test SLD histogram %v; mean node homophily %.3f", name, hist, sum/float64(n))
		})
	}
}
