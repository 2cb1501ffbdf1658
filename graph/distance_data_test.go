package graph_test

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
)

// mirror returns the datasets mirror ($PCGCN_DATA, else shared/datasets
// beside an ancestor of the working directory); it skips the test when
// there is none, or fails it when PCGCN_REQUIRE_DATA=1.
func mirror(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("PCGCN_DATA"); d != "" {
		return d
	}
	if wd, err := os.Getwd(); err == nil {
		for dir := wd; ; dir = filepath.Dir(dir) {
			c := filepath.Join(dir, "shared", "datasets")
			if st, err := os.Stat(c); err == nil && st.IsDir() {
				return c
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	if os.Getenv("PCGCN_REQUIRE_DATA") == "1" {
		t.Fatal("datasets mirror not found (set PCGCN_DATA) and PCGCN_REQUIRE_DATA=1")
	}
	t.Skip("datasets mirror not found; set PCGCN_DATA")
	return ""
}

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
	}
}
