package minibatch

import (
	"fmt"
	"math"
	"slices"

	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// AllNeighbours as a fanout keeps every neighbour of a hop.
const AllNeighbours = -1

// Sampler draws neighbourhoods of seed nodes in an adjacency. It keeps
// scratch space between calls and is not safe for concurrent use.
type Sampler struct {
	adj     *tensor.CSR
	fanouts []int
	local   map[int32]int32 // global id → position in the current sample
	pick    []int32         // scratch for sampling one neighbourhood
}

// Sample is the neighbourhood of a batch of seeds.
type Sample struct {
	// Nodes are the global ids of the sampled nodes: the seeds first, in
	// their order, then each hop's new nodes in the order they were drawn.
	Nodes []int32
	// Seeds is the number of seeds.
	Seeds int
	// Adj holds the sampled links between the nodes, symmetrised (values 1,
	// no self-loops, marked symmetric; row i is Nodes[i]).
	Adj *tensor.CSR
	// AHat estimates the rows of the whole graph's Â = D̃^{-1/2}(A+I)D̃^{-1/2}
	// that the seeds' outputs read: a node u that drew s_u of its d_u
	// neighbours (the seeds and every hop but the last) has Â_uu = 1/(d_u+1)
	// and Â_uv = (d_u/s_u)/√((d_u+1)(d_v+1)) for each v it drew, d being
	// degrees in the whole graph, so that ÂH is an unbiased estimate of the
	// whole graph's (ÂH)_u, and equal to it when the fanout takes every
	// neighbour; a node of the last hop has its self-loop only (no seed's
	// output within the hops reads its row). Rows are local, not symmetric.
	AHat *tensor.CSR
	// Drew is, for each node (local id), how many neighbours it drew: 0 for
	// a node of the last hop, which draws none.
	Drew []int32
	// HopEnds[k] is the number of nodes within k hops of the seeds
	// (Nodes[:HopEnds[k]]; HopEnds[0] = Seeds), one entry per hop sampled
	// and the seeds'.
	HopEnds []int
}

// NewSampler samples in adj (rows: the nodes a node aggregates from) with
// one fanout per hop, seeds outwards: fanouts[0] neighbours of each seed,
// fanouts[1] of each of those, and so on (AllNeighbours keeps all; 0 adds
// no hop, as for a model without message passing).
func NewSampler(adj *tensor.CSR, fanouts []int) (*Sampler, error) {
	if adj.Rows != adj.Cols {
		return nil, fmt.Errorf("minibatch: adjacency is %d×%d, want square", adj.Rows, adj.Cols)
	}
	for _, f := range fanouts {
		if f < AllNeighbours {
			return nil, fmt.Errorf("minibatch: fanout %d, want ≥ 0 or %d (all neighbours)", f, AllNeighbours)
		}
	}
	return &Sampler{adj: adj, fanouts: slices.Clone(fanouts), local: map[int32]int32{}}, nil
}

// Sample returns the nodes reached from seeds and the links drawn between
// them. Each node of a hop's frontier draws min(fanout, degree) distinct
// neighbours uniformly from g; the same seeds and generator state give the
// same sample.
func (s *Sampler) Sample(seeds []int32, g *rng.RNG) Sample {
	clear(s.local)
	nodes := make([]int32, 0, len(seeds))
	add := func(v int32) int32 {
		if k, ok := s.local[v]; ok {
			return k
		}
		k := int32(len(nodes))
		s.local[v] = k
		nodes = append(nodes, v)
		return k
	}
	for _, v := range seeds {
		add(v)
	}
	var edges [][2]int32 // local ends, each drawn link once: (drawer, drawn)
	var drew []int32     // per expanded node (local id = index): how many it drew
	frontier := [2]int{0, len(nodes)}
	hopEnds := []int{len(nodes)}
	for _, fan := range s.fanouts {
		if fan == 0 {
			break
		}
		for k := frontier[0]; k < frontier[1]; k++ {
			u := nodes[k]
			got := s.neighbours(u, fan, g)
			for _, v := range got {
				edges = append(edges, [2]int32{int32(k), add(v)})
			}
			drew = append(drew, int32(len(got)))
		}
		frontier = [2]int{frontier[1], len(nodes)}
		hopEnds = append(hopEnds, len(nodes))
	}
	drew = append(drew, make([]int32, len(nodes)-len(drew))...)
	return Sample{Nodes: nodes, Seeds: len(seeds), Adj: symmetric(len(nodes), edges), AHat: s.estimate(nodes, edges, drew),
		Drew: drew, HopEnds: hopEnds}
}

// degree returns v's degree in the whole graph.
func (s *Sampler) degree(v int32) int { return int(s.adj.RowPtr[v+1] - s.adj.RowPtr[v]) }

// estimate builds Sample.AHat from the drawn links, in the order drawn
// (edges of node k follow each other; drew[k] of them for every expanded
// node k, the others none).
func (s *Sampler) estimate(nodes []int32, edges [][2]int32, drew []int32) *tensor.CSR {
	n := len(nodes)
	rowPtr := make([]int32, n+1)
	col := make([]int32, 0, len(edges)+n)
	val := make([]float32, 0, len(edges)+n)
	e := 0
	for k := 0; k < n; k++ {
		du := s.degree(nodes[k])
		selfW := float32(1 / float64(du+1))
		start := len(col)
		col, val = append(col, int32(k)), append(val, selfW)
		if k < len(drew) && drew[k] > 0 {
			scale := float64(du) / float64(drew[k])
			for ; e < len(edges) && edges[e][0] == int32(k); e++ {
				v := edges[e][1]
				dv := s.degree(nodes[v])
				col = append(col, v)
				val = append(val, float32(scale/math.Sqrt(float64(du+1)*float64(dv+1))))
			}
		}
		sortRow(col[start:], val[start:])
		rowPtr[k+1] = int32(len(col))
	}
	return &tensor.CSR{Rows: n, Cols: n, RowPtr: rowPtr, ColIdx: col, Val: val}
}

// sortRow sorts a row's entries by column.
func sortRow(col []int32, val []float32) {
	idx := make([]int, len(col))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return int(col[a]) - int(col[b]) })
	c, v := slices.Clone(col), slices.Clone(val)
	for i, j := range idx {
		col[i], val[i] = c[j], v[j]
	}
}

// neighbours returns fan distinct neighbours of u drawn uniformly (all of
// them when fan is AllNeighbours or at least the degree), in s.pick.
func (s *Sampler) neighbours(u int32, fan int, g *rng.RNG) []int32 {
	row := s.adj.ColIdx[s.adj.RowPtr[u]:s.adj.RowPtr[u+1]]
	if fan == AllNeighbours || fan >= len(row) {
		return row
	}
	// a partial Fisher–Yates shuffle of a copy of the row: fan draws
	s.pick = append(s.pick[:0], row...)
	for i := 0; i < fan; i++ {
		j := i + g.IntN(len(s.pick)-i)
		s.pick[i], s.pick[j] = s.pick[j], s.pick[i]
	}
	return s.pick[:fan]
}

// symmetric builds the n×n symmetric 0/1 adjacency of undirected edges,
// dropping repeats and self-loops.
func symmetric(n int, edges [][2]int32) *tensor.CSR {
	deg := make([]int32, n+1)
	for _, e := range edges {
		deg[e[0]+1]++
		deg[e[1]+1]++
	}
	for i := 0; i < n; i++ {
		deg[i+1] += deg[i]
	}
	col := make([]int32, deg[n])
	next := slices.Clone(deg[:n])
	for _, e := range edges {
		col[next[e[0]]] = e[1]
		next[e[0]]++
		col[next[e[1]]] = e[0]
		next[e[1]]++
	}
	rowPtr := make([]int32, n+1)
	out := col[:0] // compacts in place: each row only shrinks
	for i := 0; i < n; i++ {
		r := col[deg[i]:deg[i+1]]
		slices.Sort(r)
		r = slices.Compact(r)
		for _, c := range r {
			if c != int32(i) {
				out = append(out, c)
			}
		}
		rowPtr[i+1] = int32(len(out))
	}
	val := make([]float32, len(out))
	for i := range val {
		val[i] = 1
	}
	a := &tensor.CSR{Rows: n, Cols: n, RowPtr: rowPtr, ColIdx: out, Val: val}
	return a.MarkSymmetric()
}
