package graph

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/pcgcn/pcgcn/testkit"
)

func checkSLD(t *testing.T, g *Graph, train []int32, want []int32) {
	t.Helper()
	got := ShortestLabelDistance(g, train)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SLD(train %v) = %v, want %v", train, got, want)
	}
}

// TestSLDPath: path 0-1-2-3-4-5 with labels a b a a b a, training nodes 0 (a)
// and 4 (b). Class a is reached from node 0 only: node 2 at 2 hops, 3 at 3, 5
// at 5 (the walk passes node 4, of the other class: paths ignore labels).
// Class b from node 4: node 1 at 3 hops.
func TestSLDPath(t *testing.T) {
	g := labelledGraph(t, []int32{0, 1, 0, 0, 1, 0}, 2, []Edge{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}})
	checkSLD(t, g, []int32{0, 4}, []int32{0, 3, 2, 3, 0, 5})
}

// TestSLDNearestOfSeveral: path of 7 nodes of one class with training nodes
// at both ends (0 listed twice): each node takes the nearer end.
func TestSLDNearestOfSeveral(t *testing.T) {
	edges := []Edge{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}}
	g := labelledGraph(t, make([]int32, 7), 1, edges)
	checkSLD(t, g, []int32{6, 0, 0}, []int32{0, 1, 2, 3, 2, 1, 0})
}

// TestSLDTwoComponents: component {0-1-2}, component {3-4}, node 5 isolated;
// labels 0:a 1:a 2:b 3:a 4:b 5:b; training nodes 0 (a) and 4 (b).
// Node 1 is 1 hop from 0; node 2 (b) cannot reach 4; node 3 (a) cannot reach
// 0; node 5 reaches nothing: all three are -1.
func TestSLDTwoComponents(t *testing.T) {
	g := labelledGraph(t, []int32{0, 0, 1, 0, 1, 1}, 2, []Edge{{0, 1}, {1, 2}, {3, 4}})
	checkSLD(t, g, []int32{0, 4}, []int32{0, 1, -1, -1, 0, -1})
}

// TestSLDClassWithoutTraining: the square 0-1-2-3-0 with a tail 2-4; labels
// 0:a 1:b 2:c 3:b 4:a; training nodes 0 (a) and 1 (b), none of class c.
// Node 3 (b) is 2 hops from 1 (via 0 or 2); node 4 (a) is 3 hops from 0
// (0-1-2-4 or 0-3-2-4); node 2 (c) has no training node of its class: -1.
func TestSLDClassWithoutTraining(t *testing.T) {
	g := labelledGraph(t, []int32{0, 1, 2, 1, 0}, 3, []Edge{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {2, 4}})
	checkSLD(t, g, []int32{0, 1}, []int32{0, 0, -1, 2, 3})
}

// TestSLDMatchesMatrixPowers compares the BFS with the paper's own
// construction on random graphs: N(k) records, for each pair, the first k at
// which (A^k)_ij > 0 (reachability by a walk of length k, built here as
// boolean matrix powers), and SLD(i) is the minimum of N_ij over the training
// nodes j of i's class; the diagonal is 0 (a node is its own label).
func TestSLDMatchesMatrixPowers(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for trial := 0; trial < 20; trial++ {
		n := 5 + r.IntN(25)
		classes := 1 + r.IntN(4)
		y := make([]int32, n)
		for i := range y {
			y[i] = int32(r.IntN(classes))
		}
		var edges []Edge
		m := r.IntN(2 * n)
		for e := 0; e < m; e++ {
			edges = append(edges, Edge{int32(r.IntN(n)), int32(r.IntN(n))})
		}
		g := labelledGraph(t, y, classes, edges)
		var train []int32
		for i := 0; i < n; i++ {
			if r.IntN(4) == 0 {
				train = append(train, int32(i))
			}
		}
		dense := make([][]bool, n)
		for i := range dense {
			dense[i] = make([]bool, n)
			for k := g.Adj.RowPtr[i]; k < g.Adj.RowPtr[i+1]; k++ {
				dense[i][g.Adj.ColIdx[k]] = true
			}
		}
		// hop[i][j]: N_ij, 0 = not yet reached (the diagonal is set apart).
		hop := make([][]int, n)
		walk := make([][]bool, n) // (A^k)_ij > 0
		for i := range hop {
			hop[i] = make([]int, n)
			walk[i] = append([]bool(nil), dense[i]...)
		}
		for k := 1; k <= n; k++ {
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if walk[i][j] && hop[i][j] == 0 {
						hop[i][j] = k
					}
				}
			}
			next := make([][]bool, n)
			for i := range next {
				next[i] = make([]bool, n)
				for l := 0; l < n; l++ {
					if !walk[i][l] {
						continue
					}
					for j := 0; j < n; j++ {
						if dense[l][j] {
							next[i][j] = true
						}
					}
				}
			}
			walk = next
		}
		want := make([]int32, n)
		for i := 0; i < n; i++ {
			want[i] = -1
			for _, j := range train {
				if y[j] != y[i] {
					continue
				}
				d := hop[i][j]
				if int(j) == i {
					d = 0
				} else if d == 0 {
					continue
				}
				if want[i] < 0 || int32(d) < want[i] {
					want[i] = int32(d)
				}
			}
		}
		checkSLD(t, g, train, want)
	}
}

func TestSLDPanicsOnBadID(t *testing.T) {
	g := labelledGraph(t, []int32{0, 0}, 1, []Edge{{0, 1}})
	testkit.Panics(t, "training node 2 of 2", func() {
		ShortestLabelDistance(g, []int32{2})
	})
}
