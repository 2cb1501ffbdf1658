package graph

import (
	"math"
	"testing"
)

// TestNodeHomophilyByHand uses the 6-node graph of TestComputeStatsTwoClasses:
//
//	labels 0:c0 1:c0 2:c1 3:c1 4:c0 5:c1 (5 isolated)
//	edges  0-1 1-2 2-3 3-4 0-4 1-3
//
// node 0: neighbours 1,4 both c0 → 1; node 1: 0,2,3 → 1/3; node 2: 1,3 → 1/2;
// node 3: 2,4,1 → 1/3; node 4: 3,0 → 1/2; node 5 isolated → NaN. The mean
// over non-isolated nodes is 8/15, the Stats value.
func TestNodeHomophilyByHand(t *testing.T) {
	y := []int32{0, 0, 1, 1, 0, 1}
	edges := []Edge{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 4}, {1, 3}, {1, 0}, {2, 2}}
	g := labelledGraph(t, y, 2, edges)
	h := NodeHomophily(g)
	want := []float64{1, 1.0 / 3, 0.5, 1.0 / 3, 0.5}
	if len(h) != 6 {
		t.Fatalf("len %d, want 6", len(h))
	}
	for i, w := range want {
		if math.Abs(h[i]-w) > 1e-15 {
			t.Errorf("h[%d] = %v, want %v", i, h[i], w)
		}
	}
	if !math.IsNaN(h[5]) {
		t.Errorf("isolated node: %v, want NaN", h[5])
	}
	var sum float64
	for _, v := range h[:5] {
		sum += v
	}
	if math.Abs(sum/5-8.0/15) > 1e-15 {
		t.Errorf("mean %v, want 8/15", sum/5)
	}
}

// TestNodeHomophilyExtremes checks a star whose centre differs from all its
// leaves (0 at the centre, 0 at each leaf) and a same-class pair (1 each).
func TestNodeHomophilyExtremes(t *testing.T) {
	y := []int32{0, 1, 1, 1, 2, 2}
	edges := []Edge{{0, 1}, {0, 2}, {0, 3}, {4, 5}}
	h := NodeHomophily(labelledGraph(t, y, 3, edges))
	want := []float64{0, 0, 0, 0, 1, 1}
	for i, w := range want {
		if h[i] != w {
			t.Errorf("h[%d] = %v, want %v", i, h[i], w)
		}
	}
}
