package graph

import (
	"fmt"
	"math"
	"slices"

	"github.com/pcgcn/pcgcn/tensor"
)

// UndirectedAdjacency builds the symmetric 0/1 adjacency of n nodes from an
// edge list in any direction, dropping self-loops and duplicates. It returns an
// error naming the first edge that refers to a node outside [0, n).
//
// It is a counting sort (degrees, then one placement pass, then a sort of
// each row's columns), so besides the result it holds only n+1 counters:
// 1M nodes and 10M edges take well under a second.
func UndirectedAdjacency(n int, edges []Edge) (*tensor.CSR, error) {
	a, err := buildAdjacency(n, edges, true)
	if err != nil {
		return nil, err
	}
	return a.MarkSymmetric(), nil
}

// DirectedAdjacency builds the 0/1 adjacency of n nodes with an entry (u, v)
// for each edge u→v, dropping self-loops and duplicates.
func DirectedAdjacency(n int, edges []Edge) (*tensor.CSR, error) {
	return buildAdjacency(n, edges, false)
}

// buildAdjacency places each edge (and its reverse when both is set) into
// its row, then sorts and deduplicates every row.
func buildAdjacency(n int, edges []Edge, both bool) (*tensor.CSR, error) {
	ptr := make([]int32, n+1)
	total := 0
	for i, e := range edges {
		u, v := e[0], e[1]
		if u < 0 || int(u) >= n || v < 0 || int(v) >= n {
			return nil, fmt.Errorf("edge %d (%d, %d) names a node outside [0, %d)", i, u, v, n)
		}
		if u == v {
			continue
		}
		ptr[u+1]++
		total++
		if both {
			ptr[v+1]++
			total++
		}
	}
	if total > math.MaxInt32 {
		return nil, fmt.Errorf("%d adjacency entries exceed the int32 index range", total)
	}
	for i := range n {
		ptr[i+1] += ptr[i]
	}
	col := make([]int32, total)
	next := make([]int32, n)
	copy(next, ptr[:n])
	for _, e := range edges {
		u, v := e[0], e[1]
		if u == v {
			continue
		}
		col[next[u]] = v
		next[u]++
		if both {
			col[next[v]] = u
			next[v]++
		}
	}
	next = nil
	// sort each row and drop duplicates, compacting in place: the write
	// position never passes the read position
	w := int32(0)
	lo := int32(0)
	for i := range n {
		hi := ptr[i+1]
		row := col[lo:hi]
		slices.Sort(row)
		ptr[i] = w
		for k, c := range row {
			if k > 0 && c == row[k-1] {
				continue
			}
			col[w] = c
			w++
		}
		lo = hi
	}
	ptr[n] = w
	col = col[:w:w]
	val := make([]float32, w)
	for k := range val {
		val[k] = 1
	}
	return tensor.NewCSR(n, n, ptr, col, val)
}
