package minibatch

import (
	"fmt"
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

// Sample returns the nodes reached from seeds (global ids: the seeds first,
// in their order, then each hop's new nodes in the order they were drawn)
// and the sampled edges between them as a symmetric local adjacency
// (values 1, no self-loops, marked symmetric; row i is nodes[i]). Each
// node of a hop's frontier draws min(fanout, degree) distinct neighbours
// uniformly from g; the same seeds and generator state give the same sample.
func (s *Sampler) Sample(seeds []int32, g *rng.RNG) (nodes []int32, adj *tensor.CSR) {
	clear(s.local)
	nodes = make([]int32, 0, len(seeds))
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
	var edges [][2]int32 // local ends, each sampled link once
	frontier := [2]int{0, len(nodes)}
	for _, fan := range s.fanouts {
		if fan == 0 {
			break
		}
		for k := frontier[0]; k < frontier[1]; k++ {
			u := nodes[k]
			for _, v := range s.neighbours(u, fan, g) {
				if v != u {
					edges = append(edges, [2]int32{int32(k), add(v)})
				}
			}
		}
		frontier = [2]int{frontier[1], len(nodes)}
	}
	return nodes, symmetric(len(nodes), edges)
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
// dropping repeats.
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
		out = append(out, r...)
		rowPtr[i+1] = int32(len(out))
	}
	val := make([]float32, len(out))
	for i := range val {
		val[i] = 1
	}
	a := &tensor.CSR{Rows: n, Cols: n, RowPtr: rowPtr, ColIdx: out, Val: val}
	return a.MarkSymmetric()
}
