package graph

import (
	"reflect"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// TestComputeStatsTwoClasses works through a 6-node graph by hand.
//
//	labels: 0:c0 1:c0 2:c1 3:c1 4:c0 5:c1 (node 5 isolated)
//	edges:  0-1 s, 1-2 d, 2-3 s, 3-4 d, 0-4 s, 1-3 d  (s = same class)
//	        given with a duplicate (1,0) and a self-loop (2,2), both dropped
//
// edges = 6, same = 3, so edge homophily = 3/6 = 0.5.
// degrees 2,3,2,3,2,0: min 0, max 3, mean 12/6 = 2, isolated 1.
// per-node same fractions: n0 2/2, n1 1/3, n2 1/2, n3 1/3, n4 1/2, summing
// to 8/3 over 5 non-isolated nodes: node homophily = 8/15.
// class-insensitive: class 0 = {0,1,4}: same entries 2+1+1 = 4 of degree
// 2+3+2 = 7, h0 = 4/7, minus 3/6 gives 1/14; class 1 = {2,3,5}: 1+1 of 2+3,
// h1 = 2/5 < 1/2 gives 0; divided by C−1 = 1: 1/14.
func TestComputeStatsTwoClasses(t *testing.T) {
	y := []int32{0, 0, 1, 1, 0, 1}
	edges := []Edge{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 4}, {1, 3}, {1, 0}, {2, 2}}
	x := tensor.NewDense(6, 4)
	x.Set(0, 0, 1)
	x.Set(1, 1, 2)
	x.Set(5, 3, 1) // 3 non-zeros of 24
	splits := []Split{
		{Train: []int32{0, 2}, Val: []int32{1}, Test: []int32{3, 4, 5}},
		{Train: []int32{1, 3, 5}, Val: []int32{0, 4}, Test: []int32{2}},
	}
	g := buildGraph(t, y, 2, edges, x, splits)
	s := ComputeStats(g)

	if s.Name != "hand" || s.Nodes != 6 || s.Edges != 6 || s.Features != 4 || s.Classes != 2 {
		t.Fatalf("sizes: %+v", s)
	}
	if !testkit.Near(s.FeatureDensity, 3.0/24, 1e-12) {
		t.Errorf("feature density %v, want 0.125", s.FeatureDensity)
	}
	if !reflect.DeepEqual(s.ClassSizes, []int{3, 3}) {
		t.Errorf("class sizes %v", s.ClassSizes)
	}
	if s.Isolated != 1 || s.DegreeMin != 0 || s.DegreeMax != 3 || !testkit.Near(s.DegreeMean, 2, 1e-12) {
		t.Errorf("degrees: isolated %d min %d max %d mean %v", s.Isolated, s.DegreeMin, s.DegreeMax, s.DegreeMean)
	}
	if !testkit.Near(s.EdgeHomophily, 0.5, 1e-12) {
		t.Errorf("edge homophily %v, want 0.5", s.EdgeHomophily)
	}
	if !testkit.Near(s.NodeHomophily, 8.0/15, 1e-12) {
		t.Errorf("node homophily %v, want 8/15", s.NodeHomophily)
	}
	if !testkit.Near(s.ClassInsensitiveHomophily, 1.0/14, 1e-12) {
		t.Errorf("class-insensitive homophily %v, want 1/14", s.ClassInsensitiveHomophily)
	}
	want := []SplitSizes{{2, 1, 3}, {3, 2, 1}}
	if !reflect.DeepEqual(s.Splits, want) {
		t.Errorf("splits %v, want %v", s.Splits, want)
	}
}

// TestComputeStatsThreeClasses checks the division by C−1 and a class whose
// only node has a single heterophilous edge.
//
//	labels 0,0,0,1,2; edges: triangle 0-1-2 (all same), 3-4 (different)
//
// edge homophily 3/4; node fractions 1,1,1,0,0 → 3/5;
// class-insensitive: h0 = 6/6 = 1, minus 3/5 = 0.4; h1 = 0/1 − 1/5 < 0;
// h2 = 0 − 1/5 < 0; (0.4 + 0 + 0)/(3 − 1) = 0.2.
func TestComputeStatsThreeClasses(t *testing.T) {
	y := []int32{0, 0, 0, 1, 2}
	edges := []Edge{{0, 1}, {1, 2}, {2, 0}, {3, 4}}
	x := tensor.NewDense(5, 2)
	for i := range x.Data {
		x.Data[i] = 1
	}
	g := buildGraph(t, y, 3, edges, x, nil)
	s := ComputeStats(g)
	if s.Edges != 4 || s.Isolated != 0 || s.DegreeMin != 1 || s.DegreeMax != 2 || !testkit.Near(s.DegreeMean, 8.0/5, 1e-12) {
		t.Fatalf("sizes: %+v", s)
	}
	if !testkit.Near(s.FeatureDensity, 1, 1e-12) {
		t.Errorf("feature density %v, want 1", s.FeatureDensity)
	}
	if !testkit.Near(s.EdgeHomophily, 0.75, 1e-12) || !testkit.Near(s.NodeHomophily, 0.6, 1e-12) || !testkit.Near(s.ClassInsensitiveHomophily, 0.2, 1e-12) {
		t.Errorf("homophily edge %v node %v ci %v, want 0.75 0.6 0.2",
			s.EdgeHomophily, s.NodeHomophily, s.ClassInsensitiveHomophily)
	}
	if len(s.Splits) != 0 {
		t.Errorf("splits %v, want none", s.Splits)
	}
}

// TestComputeStatsNoEdges: every node isolated, every ratio 0 (not NaN).
func TestComputeStatsNoEdges(t *testing.T) {
	g := buildGraph(t, []int32{0, 1, 1}, 2, nil, tensor.NewDense(3, 2), nil)
	s := ComputeStats(g)
	if s.Edges != 0 || s.Isolated != 3 || s.DegreeMin != 0 || s.DegreeMax != 0 || s.DegreeMean != 0 {
		t.Fatalf("sizes: %+v", s)
	}
	if s.EdgeHomophily != 0 || s.NodeHomophily != 0 || s.ClassInsensitiveHomophily != 0 || s.FeatureDensity != 0 {
		t.Errorf("ratios of an edgeless graph: %+v", s)
	}
}

// TestComputeStatsSparseFeatures: density read from CSR features.
func TestComputeStatsSparseFeatures(t *testing.T) {
	d := tensor.NewDense(4, 5)
	d.Set(2, 4, 3) // 1 of 20
	y := []int32{0, 0, 1, 1}
	g := labelledGraph(t, y, 2, []Edge{{0, 1}, {2, 3}, {1, 2}})
	g.Name, g.X = "sparse", NewFeatures(d)
	if g.X.Sparse == nil {
		t.Fatal("expected sparse features at density 0.05")
	}
	s := ComputeStats(g)
	if !testkit.Near(s.FeatureDensity, 0.05, 1e-12) || s.Features != 5 {
		t.Errorf("features %d density %v, want 5 and 0.05", s.Features, s.FeatureDensity)
	}
	// 0-1 same, 2-3 same, 1-2 different: 2/3; nodes 1, 1/2, 1/2, 1 → 3/4.
	if !testkit.Near(s.EdgeHomophily, 2.0/3, 1e-12) || !testkit.Near(s.NodeHomophily, 0.75, 1e-12) {
		t.Errorf("edge %v node %v, want 2/3 and 3/4", s.EdgeHomophily, s.NodeHomophily)
	}
}
