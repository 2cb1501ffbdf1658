package synth

import (
	"math/bits"

	"github.com/pcgcn/pcgcn/graph"
)

// edgeChunk is the number of edges emitted at a time.
const edgeChunk = 1 << 16

// below maps a uniform 64-bit value to [0, n) by a 128-bit product (bias
// below n/2⁶⁴).
func below(x uint64, n int) int {
	hi, _ := bits.Mul64(x, uint64(n))
	return int(hi)
}

// Edge returns sampled edge k (k < NumEdges): a pure function of the seed
// and k (three values of a counter-based stream).
func (g *Generated) Edge(k int) graph.Edge {
	i := 3 * uint64(k)
	n := g.cfg.Nodes
	u := below(g.edgeKey.Uint64At(i), n)
	c := g.labels[u]
	lo, hi := g.start[c], g.start[c+1]
	coin := float64(g.edgeKey.Uint64At(i+1)>>11) * (1.0 / (1 << 53))
	x := g.edgeKey.Uint64At(i + 2)
	var v int32
	if coin < g.cfg.Homophily {
		// another node of u's class: skip u's own position
		r := below(x, hi-lo-1)
		if r >= int(g.pos[u]) {
			r++
		}
		v = g.members[lo+r]
	} else {
		// a node of another class: skip the block of u's class
		r := below(x, n-(hi-lo))
		if r >= lo {
			r += hi - lo
		}
		v = g.members[r]
	}
	return graph.Edge{int32(u), v}
}

// NumEdges returns the number of sampled edges m.
func (g *Generated) NumEdges() int { return g.cfg.NumEdges() }

// Edges emits the m sampled edges in order, in chunks.
func (g *Generated) Edges(emit func([]graph.Edge) error) error {
	m := g.NumEdges()
	buf := make([]graph.Edge, min(m, edgeChunk))
	for lo := 0; lo < m; lo += edgeChunk {
		es := buf[:min(edgeChunk, m-lo)]
		for k := range es {
			es[k] = g.Edge(lo + k)
		}
		if err := emit(es); err != nil {
			return err
		}
	}
	return nil
}

// SameClass counts the edges of es joining two nodes of the same class.
func (g *Generated) SameClass(es []graph.Edge) int {
	s := 0
	for _, e := range es {
		if g.labels[e[0]] == g.labels[e[1]] {
			s++
		}
	}
	return s
}
