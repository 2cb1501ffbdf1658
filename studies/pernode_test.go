package studies

import (
	"math"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/train"
)

// nodeResult builds a result of one model with per-node outputs: split s
// tests nodes tests[s] with outcomes oks[s].
func nodeResult(model string, tests [][]int32, oks [][]bool) *experiments.Result {
	r := &experiments.Result{Cell: experiments.Cell{Model: model, Dataset: "toy"}}
	for s := range tests {
		r.PerSplit = append(r.PerSplit, experiments.SplitResult{SplitScores: train.SplitScores{Split: s}, Nodes: &experiments.NodeOutputs{Test: tests[s], Correct: oks[s]}})
	}
	return r
}

// toyResults: 8 nodes, two splits testing {0,2,3,6} and {1,4,5,7}.
//
//	model A: split 0 T F T T, split 1 T T F F
//	model B: split 0 F F F T, split 1 T T T T
func toyResults() []*experiments.Result {
	tests := [][]int32{{0, 2, 3, 6}, {1, 4, 5, 7}}
	a := nodeResult("A", tests, [][]bool{{true, false, true, true}, {true, true, false, false}})
	b := nodeResult("B", tests, [][]bool{{false, false, false, true}, {true, true, true, true}})
	return []*experiments.Result{a, b}
}

// toyHomophily: node 6 isolated; node 3 is 3/5, which must land in [0.6, …).
func toyHomophily() []float64 {
	return []float64{0, 0.1, 0.25, 3.0 / 5, 0.99, 1, math.NaN(), 0.5}
}

func approx(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) < 1e-9
}

// TestBucketAccuracyByHand: with width 0.2 the bins hold
//
//	[0,.2): (s0,n0) A✓ B✗, (s1,n1) A✓ B✓ → A 100, B 50
//	[.2,.4): (s0,n2) A✗ B✗             → A 0,   B 0
//	[.4,.6): (s1,n7) A✗ B✓             → A 0,   B 100
//	[.6,.8): (s0,n3) A✓ B✗             → A 100, B 0
//	[.8,1]: (s1,n4) A✓ B✓, (s1,n5) A✗ B✓ → A 50, B 100
//
// and (s0,n6) is isolated: 7 pooled test nodes in bins, shares 2,1,1,1,2 /7.
func TestBucketAccuracyByHand(t *testing.T) {
	bins, iso, err := bucketAccuracy(toyResults(), toyHomophily(), 0.2)
	if err != nil {
		t.Fatal(err)
	}
	if iso != 1 {
		t.Errorf("isolated %d, want 1", iso)
	}
	want := []struct {
		lo, hi float64
		nodes  int
		accA   float64
		accB   float64
	}{{0, 0.2, 2, 100, 50}, {0.2, 0.4, 1, 0, 0}, {0.4, 0.6, 1, 0, 100}, {0.6, 0.8, 1, 100, 0}, {0.8, 1, 2, 50, 100}}
	if len(bins) != len(want) {
		t.Fatalf("%d bins, want %d", len(bins), len(want))
	}
	for i, w := range want {
		b := bins[i]
		if !approx(b.Lo, w.lo) || !approx(b.Hi, w.hi) || b.Nodes != w.nodes || !approx(b.Share, float64(w.nodes)/7) {
			t.Errorf("bin %d: [%v,%v) nodes %d share %v, want [%v,%v) %d %v", i, b.Lo, b.Hi, b.Nodes, b.Share, w.lo, w.hi, w.nodes, float64(w.nodes)/7)
		}
		if !approx(b.Acc[0], w.accA) || !approx(b.Acc[1], w.accB) || b.Count[0] != w.nodes || b.Count[1] != w.nodes {
			t.Errorf("bin %d: acc %v count %v, want A %v B %v, %d each", i, b.Acc, b.Count, w.accA, w.accB, w.nodes)
		}
	}
}

// TestBucketAccuracyTenBins: width 0.1 gives 10 bins; 1 and 0.99 share the
// closed last bin, 3/5 is in [0.6, 0.7), and bins without nodes have NaN
// accuracy.
func TestBucketAccuracyTenBins(t *testing.T) {
	bins, _, err := bucketAccuracy(toyResults(), toyHomophily(), 0.1)
	if err != nil {
		t.Fatal(err)
	}
	if len(bins) != 10 || bins[9].Hi != 1 {
		t.Fatalf("%d bins, last ends at %v", len(bins), bins[len(bins)-1].Hi)
	}
	nodes := []int{1, 1, 1, 0, 0, 1, 1, 0, 0, 2}
	for i, n := range nodes {
		if bins[i].Nodes != n {
			t.Errorf("bin %d: %d nodes, want %d", i, bins[i].Nodes, n)
		}
	}
	if !math.IsNaN(bins[3].Acc[0]) {
		t.Errorf("empty bin accuracy %v, want NaN", bins[3].Acc[0])
	}
	if !approx(bins[6].Acc[0], 100) || !approx(bins[6].Acc[1], 0) {
		t.Errorf("bin [0.6,0.7) acc %v, want [100 0]", bins[6].Acc)
	}
}

func TestBucketAccuracyErrors(t *testing.T) {
	h := toyHomophily()
	for name, f := range map[string]func() error{
		"width 0.3": func() error { _, _, err := bucketAccuracy(toyResults(), h, 0.3); return err },
		"width 0":   func() error { _, _, err := bucketAccuracy(toyResults(), h, 0); return err },
		"no results": func() error {
			_, _, err := bucketAccuracy(nil, h, 0.2)
			return err
		},
		"short h": func() error { _, _, err := bucketAccuracy(toyResults(), h[:5], 0.2); return err },
		"no nodes": func() error {
			rs := toyResults()
			rs[1].PerSplit[1].Nodes = nil
			_, _, err := bucketAccuracy(rs, h, 0.2)
			return err
		},
		"mismatched outcomes": func() error {
			rs := toyResults()
			rs[0].PerSplit[0].Nodes.Correct = rs[0].PerSplit[0].Nodes.Correct[:2]
			_, _, err := bucketAccuracy(rs, h, 0.2)
			return err
		},
		"homophily 1.5": func() error {
			bad := append([]float64(nil), h...)
			bad[0] = 1.5
			_, _, err := bucketAccuracy(toyResults(), bad, 0.2)
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			if f() == nil {
				t.Errorf("%s: no error", name)
			}
		})
	}
}

// toySLD: split 0 tests nodes 0,2,3,6 at SLD 1,2,5,−1; split 1 tests
// 1,4,5,7 at SLD 3,1,2,7.
func toySLD(split int) []int32 {
	if split == 0 {
		return []int32{1, 0, 2, 5, 0, 0, -1, 0}
	}
	return []int32{0, 3, 0, 0, 1, 2, 0, 7}
}

// TestAccuracyByDistanceByHand with maxD 3:
//
//	1:  (s0,n0) A✓ B✗, (s1,n4) A✓ B✓           → A 100,  B 50
//	2:  (s0,n2) A✗ B✗, (s1,n5) A✗ B✓           → A 0,    B 50
//	≥3: (s0,n3) A✓ B✗, (s1,n1) A✓ B✓, (s1,n7) A✗ B✓ → A 66.7, B 66.7
//	unreachable: (s0,n6) A✓ B✓                   → 100, 100
func TestAccuracyByDistanceByHand(t *testing.T) {
	bs, err := accuracyByDistance(toyResults(), toySLD, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		label      string
		min, nodes int
		a, b       float64
	}{{"1", 1, 2, 100, 50}, {"2", 2, 2, 0, 50}, {"≥3", 3, 3, 200.0 / 3, 200.0 / 3}, {"unreachable", -1, 1, 100, 100}}
	if len(bs) != len(want) {
		t.Fatalf("%d buckets, want %d", len(bs), len(want))
	}
	for i, w := range want {
		b := bs[i]
		if b.Label != w.label || b.Min != w.min || b.Nodes != w.nodes || b.Count[0] != w.nodes || b.Count[1] != w.nodes {
			t.Errorf("bucket %d: %q min %d nodes %d counts %v, want %q %d %d", i, b.Label, b.Min, b.Nodes, b.Count, w.label, w.min, w.nodes)
		}
		if !approx(b.Acc[0], w.a) || !approx(b.Acc[1], w.b) {
			t.Errorf("bucket %q: acc %v, want [%v %v]", b.Label, b.Acc, w.a, w.b)
		}
	}
	table := distanceTable(bs, []string{"A", "B"})
	if !strings.Contains(table, "| ≥3 | 3 | 66.7 (3) | 66.7 (3) |") {
		t.Errorf("table:\n%s", table)
	}
}

func TestAccuracyByDistanceErrors(t *testing.T) {
	if _, err := accuracyByDistance(toyResults(), toySLD, 0); err == nil {
		t.Error("maxD 0: no error")
	}
	if _, err := accuracyByDistance(nil, toySLD, 3); err == nil {
		t.Error("no results: no error")
	}
	zero := func(split int) []int32 { return make([]int32, 8) }
	if _, err := accuracyByDistance(toyResults(), zero, 3); err == nil {
		t.Error("SLD 0 on a test node: no error")
	}
	short := func(split int) []int32 { return []int32{1, 1} }
	if _, err := accuracyByDistance(toyResults(), short, 3); err == nil {
		t.Error("short distances: no error")
	}
	none := func(split int) []int32 { return nil }
	if _, err := accuracyByDistance(toyResults(), none, 3); err == nil {
		t.Error("nil distances: no error")
	}
}

func TestBucketTable(t *testing.T) {
	bins, _, err := bucketAccuracy(toyResults(), toyHomophily(), 0.2)
	if err != nil {
		t.Fatal(err)
	}
	table := bucketTable(bins, []string{"A", "B"})
	for _, want := range []string{"| [0, 0.2) | 28.6% | 100.0 (2) | 50.0 (2) |", "| [0.8, 1] | 28.6% | 50.0 (2) | 100.0 (2) |"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
}

func TestLabelRateSeries(t *testing.T) {
	mk := func(model string, k int, meanOf, std float64) *experiments.Result {
		return &experiments.Result{Cell: experiments.Cell{Model: model}.WithOpt("labels_per_class", k), Scores: train.Scores{TestMean: meanOf, TestStd: std}}
	}
	rs := []*experiments.Result{mk("gcn", 20, 70, 2), mk("gcn", 5, 60, 3), mk("pcgcn", 5, 65, 1), mk("gcn", 0, 99, 0), mk("gcn", 7, 1, 1), nil}
	s := labelRateSeries(rs, []int{20, 5, 2})
	if len(s) != 2 {
		t.Fatalf("%d series, want 2", len(s))
	}
	g := s["gcn"]
	if g[0] != (meanStd{70, 2}) || g[1] != (meanStd{60, 3}) || !math.IsNaN(g[2].Mean) {
		t.Errorf("gcn %v", g)
	}
	p := s["pcgcn"]
	if !math.IsNaN(p[0].Mean) || p[1] != (meanStd{65, 1}) {
		t.Errorf("pcgcn %v", p)
	}
}

func TestMatchingPoints(t *testing.T) {
	mk := func(ds string, meanOf float64, match ...float64) *experiments.Result {
		r := &experiments.Result{Cell: experiments.Cell{Model: "pcgcn", Dataset: ds}, Scores: train.Scores{TestMean: meanOf}}
		for _, m := range match {
			r.PerSplit = append(r.PerSplit, experiments.SplitResult{Extra: map[string]float64{"match_test": m}})
		}
		r.PerSplit = append(r.PerSplit, experiments.SplitResult{})
		return r
	}
	rs := []*experiments.Result{mk("cora", 90, 80, 90), mk("cora", 70, 50), mk("texas", 60, 40, 60), mk("texas", 1)}
	ps := matchingPoints(rs, "match_test")
	if len(ps) != 2 {
		t.Fatalf("%d series", len(ps))
	}
	if c := ps["cora"]; len(c) != 2 || c[0] != (point{50, 70}) || c[1] != (point{85, 90}) {
		t.Errorf("cora %v", c)
	}
	if x := ps["texas"]; len(x) != 1 || x[0] != (point{50, 60}) {
		t.Errorf("texas %v", x)
	}
}
