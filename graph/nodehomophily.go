package graph

import "math"

// NodeHomophily returns the node-level homophily of every node,
// ĥ_i = |{j ∈ N(i) : y_j = y_i}| / |N(i)|, the fraction of i's neighbours
// that share its label (Pei et al. 2020; the paper's "node-level homophily
// ratio"). Neighbours are the entries of g.Adj, which has no self-loops.
// Isolated nodes get NaN.
func NodeHomophily(g *Graph) []float64 {
	h := make([]float64, g.N)
	adj := g.Adj
	for i := 0; i < g.N; i++ {
		lo, hi := adj.RowPtr[i], adj.RowPtr[i+1]
		if lo == hi {
			h[i] = math.NaN()
			continue
		}
		same := 0
		for _, j := range adj.ColIdx[lo:hi] {
			if g.Y[j] == g.Y[i] {
				same++
			}
		}
		h[i] = float64(same) / float64(hi-lo)
	}
	return h
}
