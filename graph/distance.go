package graph

import "fmt"

// ShortestLabelDistance returns the paper's shortest label distance (SLD) of
// every node: the number of hops from node i to the nearest training node of
// i's own class, SLD(i) = min{ d(i, j) : j ∈ train, y_j = y_i }.
//
// The paper computes all-pairs hop distances by repeated powers of A
// (Eq. eq:neibor) and then takes the minimum over the class's training
// nodes; the same numbers come from one multi-source breadth-first search per
// class started from that class's training nodes, in O(C·(N+E)) time.
//
// A training node has distance 0; a node whose class has no training node,
// or that no training node of its class reaches, gets -1. Duplicate ids in
// train are allowed; an id outside [0, g.N) panics.
func ShortestLabelDistance(g *Graph, train []int32) []int32 {
	sld := make([]int32, g.N)
	for i := range sld {
		sld[i] = -1
	}
	// sources[c] lists the training nodes of class c.
	sources := make([][]int32, g.NumClasses)
	for _, t := range train {
		if t < 0 || int(t) >= g.N {
			panic(fmt.Sprintf("graph: ShortestLabelDistance: training node %d outside [0, %d)", t, g.N))
		}
		c := g.Y[t]
		sources[c] = append(sources[c], t)
	}
	dist := make([]int32, g.N)
	queue := make([]int32, 0, g.N)
	adj := g.Adj
	for c, src := range sources {
		if len(src) == 0 {
			continue
		}
		for i := range dist {
			dist[i] = -1
		}
		queue = queue[:0]
		for _, s := range src {
			if dist[s] < 0 {
				dist[s] = 0
				queue = append(queue, s)
			}
		}
		for head := 0; head < len(queue); head++ {
			u := queue[head]
			for _, v := range adj.ColIdx[adj.RowPtr[u]:adj.RowPtr[u+1]] {
				if dist[v] < 0 {
					dist[v] = dist[u] + 1
					queue = append(queue, v)
				}
			}
		}
		for i, y := range g.Y {
			if int(y) == c {
				sld[i] = dist[i]
			}
		}
	}
	return sld
}
