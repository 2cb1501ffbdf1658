package graph

import (
	"math"
	"sync"

	"github.com/pcgcn/pcgcn/tensor"
)

// normCache holds a graph's normalised adjacencies (under mu).
type normCache struct {
	mu       sync.Mutex
	adj, out normalized // GCNNorm(Adj), DirectedGCNNorm(Out)
	// pages gives back the pages of an Â in mapped scratch files (see
	// mappedGCNNorm), nil when Â is on the heap
	pages Pager
}

// normalized is a normalisation beside the matrix it was computed from, so
// that a Graph whose Adj or Out is replaced computes anew instead of
// answering for the old matrix.
type normalized struct{ of, norm *tensor.CSR }

// AHat returns Â = GCNNorm(g.Adj), computed on the first call and cached on
// the graph (as PyTorch Geometric's GCNConv caches gcn_norm), so that every
// model and split trained on g shares one Â. It is safe for concurrent use.
// The result must not be modified, nor g.Adj in place once AHat has been
// called; assigning another matrix to g.Adj is fine (Â is then recomputed).
//
// For a graph whose adjacency is memory-mapped (AdjBacking: read from its
// CSR files), Â's entries are computed into memory-mapped scratch files
// instead of the heap (the same values; mappedGCNNorm), whose pages
// ReleaseAdj gives back with the adjacency's.
func (g *Graph) AHat() *tensor.CSR {
	if g.AdjBacking != nil {
		return g.normalize(&g.norms.adj, g.Adj, func(a *tensor.CSR) *tensor.CSR {
			ahat, pages := mappedGCNNorm(a)
			g.norms.pages = pages
			return ahat
		})
	}
	return g.normalize(&g.norms.adj, g.Adj, GCNNorm)
}

// SetAHat makes ahat the graph's Â (what AHat returns) for as long as g.Adj
// stays the matrix it is now, instead of GCNNorm(g.Adj): for a graph that
// stands for part of another, whose Â is not computed from its own links (a
// mini-batch, whose rows estimate the whole graph's Â; see package
// minibatch). ahat is n×n and must not be modified afterwards.
func (g *Graph) SetAHat(ahat *tensor.CSR) {
	g.norms.mu.Lock()
	defer g.norms.mu.Unlock()
	g.norms.adj = normalized{of: g.Adj, norm: ahat}
}

// DirectedAHat returns DirectedGCNNorm(g.Out), or nil when the graph keeps
// no direction (Out is nil), cached like AHat and under the same rules.
func (g *Graph) DirectedAHat() *tensor.CSR {
	if g.Out == nil {
		return nil
	}
	return g.normalize(&g.norms.out, g.Out, DirectedGCNNorm)
}

// normalize returns c's normalisation if it is of m, else computes norm(m)
// into c.
func (g *Graph) normalize(c *normalized, m *tensor.CSR, norm func(*tensor.CSR) *tensor.CSR) *tensor.CSR {
	g.norms.mu.Lock()
	defer g.norms.mu.Unlock()
	if c.norm == nil || c.of != m {
		c.of, c.norm = m, norm(m)
	}
	return c.norm
}

// GCNNorm returns Â = D̃^{-1/2}(A + I)D̃^{-1/2}, the symmetrically normalised
// adjacency with self-loops of Kipf & Welling (the paper's Â), marked
// symmetric. adj must have no self-loops (as every loader guarantees; one
// that is there is added to, as a sum of duplicate entries would be).
//
// It merges the diagonal into each sorted row of adj directly, so besides
// the result it allocates only the n degrees.
func GCNNorm(adj *tensor.CSR) *tensor.CSR { return selfLoopNorm(adj).MarkSymmetric() }

// DirectedGCNNorm returns D̃^{-1/2}(A + I)D̃^{-1/2} of a directed adjacency
// (graph.Graph.Out: row i holds the nodes i links to) with D̃ the row sums of
// A + I, as the GCNII and GGCN authors' sys_normalized_adjacency computes it
// on the directed Geom-GCN graphs: a node aggregates over the nodes it links
// to, weighted by both ends' out-degrees. The result is not symmetric (SpMM's
// backward uses its transpose). On a symmetric adjacency it equals GCNNorm
// but for the symmetric mark.
func DirectedGCNNorm(out *tensor.CSR) *tensor.CSR { return selfLoopNorm(out) }

// SelfLoopDegrees returns the row sums of A + I, in float64: each node's
// weighted degree counting a self-loop of weight 1 (D̃ of GCN's
// normalisation).
func SelfLoopDegrees(adj *tensor.CSR) []float64 {
	deg := make([]float64, adj.Rows)
	for i := range deg {
		deg[i] = 1
		for k := adj.RowPtr[i]; k < adj.RowPtr[i+1]; k++ {
			deg[i] += float64(adj.Val[k])
		}
	}
	return deg
}

// selfLoopNorm is D̃^{-1/2}(A + I)D̃^{-1/2} with D̃ the row sums of A + I.
func selfLoopNorm(adj *tensor.CSR) *tensor.CSR {
	return selfLoopNormInto(adj, make([]int32, adj.NNZ()+adj.Rows), make([]float32, adj.NNZ()+adj.Rows))
}

// selfLoopNormInto is selfLoopNorm with the result's column indices and
// values stored in colBuf and valBuf (each of at least NNZ + n entries).
func selfLoopNormInto(adj *tensor.CSR, colBuf []int32, valBuf []float32) *tensor.CSR {
	n := adj.Rows
	deg := SelfLoopDegrees(adj)
	rowPtr := make([]int32, n+1)
	col, val := colBuf[:0], valBuf[:0] // appends stay within the buffers
	for i := 0; i < n; i++ {
		diag := false
		for k := adj.RowPtr[i]; k < adj.RowPtr[i+1]; k++ {
			c, v := adj.ColIdx[k], adj.Val[k]
			switch {
			case c == int32(i):
				v, diag = 1+v, true
			case c > int32(i) && !diag:
				col, val = append(col, int32(i)), append(val, 1)
				diag = true
			}
			col, val = append(col, c), append(val, v)
		}
		if !diag {
			col, val = append(col, int32(i)), append(val, 1)
		}
		rowPtr[i+1] = int32(len(col))
	}
	for i := 0; i < n; i++ {
		for k := rowPtr[i]; k < rowPtr[i+1]; k++ {
			j := col[k]
			val[k] = float32(float64(val[k]) / math.Sqrt(deg[i]*deg[j]))
		}
	}
	a, err := tensor.NewCSR(n, n, rowPtr, col, val)
	if err != nil {
		panic("graph: GCNNorm of an invalid CSR: " + err.Error())
	}
	return a
}
