package minibatch

import (
	"math"
	"slices"
	"testing"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit/graphtest"
)

// randomGraph is an undirected graph of n nodes with about n·deg/2 random
// edges, dense 3-dim features and 4 classes.
func randomGraph(t *testing.T, n, deg int, seed uint64) *graph.Graph {
	t.Helper()
	g := rng.New(seed)
	var edges []graph.Edge
	for i := 0; i < n*deg/2; i++ {
		edges = append(edges, graph.Edge{int32(g.IntN(n)), int32(g.IntN(n))})
	}
	x := tensor.NewDense(n, 3)
	for i := range x.Data {
		x.Data[i] = g.Float32()
	}
	y := make([]int32, n)
	for i := range y {
		y[i] = int32(g.IntN(4))
	}
	return graphtest.New(t, "random", y, 4, edges, x, nil)
}

func row(a *tensor.CSR, i int32) []int32 { return a.ColIdx[a.RowPtr[i]:a.RowPtr[i+1]] }

func TestSampleAllNeighboursIsTheNeighbourhood(t *testing.T) {
	g := randomGraph(t, 200, 6, 1)
	s, err := NewSampler(g.Adj, []int{AllNeighbours})
	if err != nil {
		t.Fatal(err)
	}
	seeds := []int32{5, 17, 3}
	sm := s.Sample(seeds, rng.New(2))
	nodes, adj := sm.Nodes, sm.Adj
	if !slices.Equal(nodes[:3], seeds) {
		t.Fatalf("nodes start %v, want the seeds %v", nodes[:3], seeds)
	}
	want := map[int32]bool{}
	for _, u := range seeds {
		want[u] = true
		for _, v := range row(g.Adj, u) {
			want[v] = true
		}
	}
	if len(nodes) != len(want) {
		t.Fatalf("%d nodes, want the %d of the seeds' closed neighbourhood", len(nodes), len(want))
	}
	// every seed's local row is its whole neighbourhood
	for k, u := range seeds {
		var got []int32
		for _, l := range row(adj, int32(k)) {
			got = append(got, nodes[l])
		}
		slices.Sort(got)
		if !slices.Equal(got, row(g.Adj, u)) {
			t.Errorf("seed %d: local neighbours %v, want %v", u, got, row(g.Adj, u))
		}
	}
	checkSubgraph(t, g, nodes, adj)
}

// checkSubgraph fails unless adj is symmetric, without self-loops or
// repeats, and every local edge is an edge of g.
func checkSubgraph(t *testing.T, g *graph.Graph, nodes []int32, adj *tensor.CSR) {
	t.Helper()
	if !adj.Symmetric() || adj.Rows != len(nodes) {
		t.Fatalf("adjacency %s, symmetric %v, for %d nodes", adj.Shape(), adj.Symmetric(), len(nodes))
	}
	dense := adj.ToDense()
	for i := 0; i < adj.Rows; i++ {
		r := row(adj, int32(i))
		if !slices.IsSorted(r) || len(slices.Compact(slices.Clone(r))) != len(r) {
			t.Fatalf("row %d unsorted or repeated: %v", i, r)
		}
		for _, j := range r {
			if int(j) == i || dense.At(int(j), i) != 1 {
				t.Fatalf("edge %d-%d: self-loop or not symmetric", i, j)
			}
			if _, ok := slices.BinarySearch(row(g.Adj, nodes[i]), nodes[j]); !ok {
				t.Fatalf("sampled edge %d-%d is not in the graph", nodes[i], nodes[j])
			}
		}
	}
}

func TestSampleFanouts(t *testing.T) {
	g := randomGraph(t, 500, 20, 3)
	s, err := NewSampler(g.Adj, []int{5, 3})
	if err != nil {
		t.Fatal(err)
	}
	seeds := []int32{0, 1, 2, 3, 4, 5, 6, 7}
	sm := s.Sample(seeds, rng.New(4))
	nodes, adj := sm.Nodes, sm.Adj
	checkSubgraph(t, g, nodes, adj)
	if bound := len(seeds) * (1 + 5 + 5*3); len(nodes) > bound {
		t.Errorf("%d nodes, more than the fanouts allow (%d)", len(nodes), bound)
	}
	// a seed keeps min(5, degree) sampled neighbours (and may gain a few
	// as the neighbour another seed drew)
	for k, u := range seeds {
		if d, got := len(row(g.Adj, u)), len(row(adj, int32(k))); got < min(5, d) {
			t.Errorf("seed %d: %d local neighbours of %d, want at least %d", u, got, d, min(5, d))
		}
	}
	again := s.Sample(seeds, rng.New(4))
	if !slices.Equal(nodes, again.Nodes) || !slices.Equal(adj.ColIdx, again.Adj.ColIdx) || !slices.Equal(sm.AHat.Val, again.AHat.Val) {
		t.Error("the same seed drew another sample")
	}
	if other := s.Sample(seeds, rng.New(5)); slices.Equal(nodes, other.Nodes) {
		t.Error("another seed drew the same sample")
	}
	// fanout 0: the seeds alone, no edges (an MLP's batch)
	s0, _ := NewSampler(g.Adj, []int{0})
	if z := s0.Sample(seeds, rng.New(4)); !slices.Equal(z.Nodes, seeds) || z.Adj.NNZ() != 0 || z.AHat.NNZ() != len(seeds) {
		t.Errorf("fanout 0: %d nodes, %d edges, Â with %d entries", len(z.Nodes), z.Adj.NNZ(), z.AHat.NNZ())
	}
	if _, err := NewSampler(g.Adj, []int{-2}); err == nil {
		t.Error("fanout -2 accepted")
	}
}

// Over many draws every neighbour of a high-degree node is drawn about
// equally often.
func TestSampleIsUniform(t *testing.T) {
	edges := make([]graph.Edge, 0, 40)
	for v := 1; v <= 40; v++ {
		edges = append(edges, graph.Edge{0, int32(v)})
	}
	adj := graphtest.Adj(t, 41, edges)
	s, _ := NewSampler(adj, []int{4})
	count := make([]int, 41)
	g := rng.New(9)
	const draws = 20000
	for i := 0; i < draws; i++ {
		for _, v := range s.Sample([]int32{0}, g).Nodes[1:] {
			count[v]++
		}
	}
	want := float64(draws) * 4 / 40
	for v := 1; v <= 40; v++ {
		if d := float64(count[v]) - want; d > 0.1*want || d < -0.1*want {
			t.Errorf("neighbour %d drawn %d times, want about %.0f", v, count[v], want)
		}
	}
}

func TestBuildGathersTheBatch(t *testing.T) {
	g := randomGraph(t, 100, 8, 6)
	s, _ := NewSampler(g.Adj, []int{4, 2})
	seeds := []int32{10, 20, 30}
	sm := s.Sample(seeds, rng.New(1))
	nodes := sm.Nodes
	for _, tc := range []struct {
		name   string
		sparse bool
	}{{"dense", false}, {"sparse", true}} {
		t.Run(tc.name, func(t *testing.T) {
			gg := g.ShallowCopy()
			if tc.sparse {
				gg.X = graph.Features{Sparse: tensor.DenseToCSR(g.X.Dense)}
			}
			b := Build(gg, sm, true)
			sub := b.Graph
			checkSubgraph(t, g, nodes, sub.Adj)
			if sub.AHat() != sm.AHat {
				t.Error("the batch graph's Â is not the sample's estimate")
			}
			x := sub.X.ToDense()
			for k, v := range nodes {
				if sub.Y[k] != g.Y[v] || !slices.Equal(x.Row(k), g.X.Dense.Row(int(v))) {
					t.Fatalf("node %d (global %d): label or features not gathered", k, v)
				}
			}
			if !slices.Equal(sub.Splits[0].Train, []int32{0, 1, 2}) {
				t.Errorf("training nodes %v, want the seeds", sub.Splits[0].Train)
			}
			if b.Rows.Rows != 3 || b.Rows.Cols != g.N {
				t.Fatalf("rows %s", b.Rows.Shape())
			}
			for k, u := range seeds {
				if !slices.Equal(row(b.Rows, int32(k)), row(g.Adj, u)) {
					t.Errorf("seed %d: adjacency row not copied", u)
				}
			}
		})
	}
}

func TestSeedsCoverTheTrainingNodesOnce(t *testing.T) {
	train := []int32{3, 9, 1, 7, 5, 11, 13}
	bs := Seeds(train, 3, rng.New(1))
	if len(bs) != 3 || len(bs[2]) != 1 {
		t.Fatalf("batches %v", bs)
	}
	var all []int32
	for _, b := range bs {
		all = append(all, b...)
	}
	slices.Sort(all)
	want := slices.Sorted(slices.Values(train))
	if !slices.Equal(all, want) {
		t.Errorf("batches cover %v, want %v", all, want)
	}
	if slices.Equal(bs[0], Seeds(train, 3, rng.New(2))[0]) && slices.Equal(bs[1], Seeds(train, 3, rng.New(2))[1]) {
		t.Error("another seed gave the same order")
	}
}

// With every neighbour drawn, the estimate's rows of the expanded nodes (the
// seeds and all hops but the last) are the whole graph's Â rows; with fewer,
// each drawn neighbour's weight is scaled by degree/drawn, so a row still
// sums like the whole graph's in expectation.
func TestSampleEstimatesTheWholeAHat(t *testing.T) {
	g := randomGraph(t, 300, 8, 11)
	whole := g.AHat().ToDense()
	for _, tc := range []struct {
		name    string
		fanouts []int
	}{{"all neighbours", []int{AllNeighbours, AllNeighbours}}, {"fanout 3", []int{3, 3}}} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := NewSampler(g.Adj, tc.fanouts)
			sm := s.Sample([]int32{4, 9, 250}, rng.New(3))
			est := sm.AHat.ToDense()
			expanded := map[int]bool{}
			for k := 0; k < sm.Seeds; k++ {
				expanded[k] = true
			}
			for k := sm.Seeds; k < len(sm.Nodes); k++ {
				if int(k) < len(sm.Nodes) && len(row(sm.AHat, int32(k))) > 1 {
					expanded[k] = true
				}
			}
			for k := range sm.Nodes {
				u := int(sm.Nodes[k])
				var sumEst, sumWhole float64
				for l := range sm.Nodes {
					e := float64(est.At(k, l))
					if e == 0 {
						continue
					}
					w := float64(whole.At(u, int(sm.Nodes[l])))
					if w == 0 {
						t.Fatalf("row %d: weight on %d, not a neighbour", u, sm.Nodes[l])
					}
					if tc.fanouts[0] == AllNeighbours && math.Abs(e-w) > 1e-6 {
						t.Fatalf("row %d col %d: %g, whole graph %g", u, sm.Nodes[l], e, w)
					}
					sumEst += e
				}
				for _, v := range row(g.AHat(), int32(u)) {
					sumWhole += float64(whole.At(u, int(v)))
				}
				if expanded[k] && tc.fanouts[0] == AllNeighbours && math.Abs(sumEst-sumWhole) > 1e-5 {
					t.Errorf("expanded row %d sums to %g, the whole graph's to %g", u, sumEst, sumWhole)
				}
				if !expanded[k] && len(row(sm.AHat, int32(k))) != 1 {
					t.Errorf("last-hop row %d has %d entries, want its self-loop", u, len(row(sm.AHat, int32(k))))
				}
			}
		})
	}
}

// Drawn with a small fanout, the estimate of a seed's row is the whole
// graph's row on average. Each entry is drawn with probability
// fanout/degree; over 20000 draws 8% is beyond four standard deviations.
func TestSampleEstimateIsUnbiased(t *testing.T) {
	g := randomGraph(t, 200, 12, 5)
	whole := g.AHat().ToDense()
	s, _ := NewSampler(g.Adj, []int{3})
	const seed, draws = 7, 20000
	mean := make([]float64, g.N)
	r := rng.New(1)
	for range draws {
		sm := s.Sample([]int32{seed}, r)
		for k := sm.AHat.RowPtr[0]; k < sm.AHat.RowPtr[1]; k++ {
			mean[sm.Nodes[sm.AHat.ColIdx[k]]] += float64(sm.AHat.Val[k]) / draws
		}
	}
	for v := 0; v < g.N; v++ {
		if w := float64(whole.At(seed, v)); math.Abs(mean[v]-w) > 0.08*w+1e-9 {
			t.Errorf("Â[%d,%d]: mean estimate %.4f, whole graph %.4f", seed, v, mean[v], w)
		}
	}
}
