package graph

// Stats are the model-free statistics of a dataset: its size, the shape of
// its degree distribution, its splits and three homophily measures.
//
// Conventions: Edges counts undirected edges once (the adjacency of a Graph
// has no self-loops and no duplicates); degrees count neighbours; NodeHomophily
// averages over the nodes with at least one neighbour only, the others are
// counted in Isolated.
type Stats struct {
	// Name is the graph's name (the key "dataset", as in every command's
	// JSON).
	Name string `json:"dataset"`
	// Nodes is the number of nodes.
	Nodes int `json:"nodes"`
	// Edges is the number of undirected edges, each counted once: for a
	// directed source, the node pairs joined by a link in either direction.
	Edges int `json:"edges"`
	// DirectedLinks is the number of links of a directed source (Graph.Out,
	// self-links removed); 0 and left out of JSON for an undirected source.
	DirectedLinks int `json:"directed_links,omitempty"`
	// Features is the feature dimension.
	Features int `json:"features"`
	// FeatureDensity is the fraction of non-zero feature values.
	FeatureDensity float64 `json:"feature_density"`
	// Classes is the number of classes.
	Classes int `json:"classes"`
	// ClassSizes[k] is the number of nodes labelled k.
	ClassSizes []int `json:"class_sizes"`
	// Isolated is the number of nodes without neighbours.
	Isolated int `json:"isolated"`
	// DegreeMin, DegreeMean and DegreeMax summarise the node degrees.
	DegreeMin  int     `json:"degree_min"`
	DegreeMean float64 `json:"degree_mean"`
	DegreeMax  int     `json:"degree_max"`
	// Splits are the train/validation/test sizes of each split.
	Splits []SplitSizes `json:"splits"`
	// EdgeHomophily is the fraction of edges joining two nodes of the same
	// class (the paper's "Homophily Ratio", Zhu et al. 2020); 0 without edges.
	EdgeHomophily float64 `json:"edge_homophily"`
	// NodeHomophily is the mean over nodes with at least one neighbour of the
	// fraction of their neighbours sharing their class (the paper's
	// "Node-level Homophily Ratio" averaged, Pei et al. 2020); 0 without edges.
	NodeHomophily float64 `json:"node_homophily"`
	// ClassInsensitiveHomophily is the measure of Lim et al. 2021 (LINKX):
	// 1/(C−1) Σ_k max(0, h_k − |C_k|/n) with h_k the fraction of the
	// neighbours of class-k nodes that are of class k; 0 when C < 2.
	ClassInsensitiveHomophily float64 `json:"class_insensitive_homophily"`
}

// SplitSizes are the sizes of one split's three node sets.
type SplitSizes struct {
	Train int `json:"train"`
	Val   int `json:"val"`
	Test  int `json:"test"`
}

// ComputeStats computes the statistics of g in one pass over its adjacency.
// g must satisfy [Graph.Validate].
func ComputeStats(g *Graph) Stats {
	s := Stats{
		Name:       g.Name,
		Nodes:      g.N,
		Edges:      g.NumEdges(),
		Features:   g.X.Cols(),
		Classes:    g.NumClasses,
		ClassSizes: make([]int, g.NumClasses),
	}
	if g.Out != nil {
		s.DirectedLinks = g.Out.NNZ()
	}
	if g.X.Dense != nil || g.X.Sparse != nil {
		s.FeatureDensity = g.X.Density()
	}
	for _, y := range g.Y {
		s.ClassSizes[y]++
	}
	// sameK[k] and degK[k]: same-class neighbour entries and all neighbour
	// entries of the nodes of class k (each undirected edge is seen from
	// both ends, which the ratios need).
	sameK := make([]int, g.NumClasses)
	degK := make([]int, g.NumClasses)
	var sameEntries, degSum int
	var nodeRatioSum float64
	s.DegreeMin = -1
	adj := g.Adj
	for i := 0; i < g.N; i++ {
		lo, hi := adj.RowPtr[i], adj.RowPtr[i+1]
		deg := int(hi - lo)
		degSum += deg
		if s.DegreeMin < 0 || deg < s.DegreeMin {
			s.DegreeMin = deg
		}
		if deg > s.DegreeMax {
			s.DegreeMax = deg
		}
		if deg == 0 {
			s.Isolated++
			continue
		}
		yi := g.Y[i]
		same := 0
		for k := lo; k < hi; k++ {
			if g.Y[adj.ColIdx[k]] == yi {
				same++
			}
		}
		sameEntries += same
		sameK[yi] += same
		degK[yi] += deg
		nodeRatioSum += float64(same) / float64(deg)
	}
	if s.DegreeMin < 0 {
		s.DegreeMin = 0
	}
	if g.N > 0 {
		s.DegreeMean = float64(degSum) / float64(g.N)
	}
	if degSum > 0 {
		// Every undirected edge contributes two adjacency entries, both
		// same-class or both not, so the entry ratio is the edge ratio.
		s.EdgeHomophily = float64(sameEntries) / float64(degSum)
	}
	if withNeighbours := g.N - s.Isolated; withNeighbours > 0 {
		s.NodeHomophily = nodeRatioSum / float64(withNeighbours)
	}
	s.ClassInsensitiveHomophily = classInsensitive(sameK, degK, s.ClassSizes, g.N)
	s.Splits = make([]SplitSizes, len(g.Splits))
	for i, sp := range g.Splits {
		s.Splits[i] = SplitSizes{Train: len(sp.Train), Val: len(sp.Val), Test: len(sp.Test)}
	}
	return s
}

// classInsensitive evaluates Lim et al.'s 1/(C−1) Σ_k max(0, h_k − |C_k|/n).
// A class whose nodes have no neighbours has no h_k and contributes 0.
func classInsensitive(sameK, degK, sizes []int, n int) float64 {
	c := len(sizes)
	if c < 2 || n == 0 {
		return 0
	}
	var sum float64
	for k := range sizes {
		if degK[k] == 0 {
			continue
		}
		hk := float64(sameK[k]) / float64(degK[k])
		if d := hk - float64(sizes[k])/float64(n); d > 0 {
			sum += d
		}
	}
	return sum / float64(c-1)
}
