package graph

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

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
// its row, then sorts and deduplicates every row. The rows are shared out
// in contiguous ranges among up to GOMAXPROCS goroutines (capped at 8), each
// scanning the whole edge list for its rows, so the result does not depend
// on the number of goroutines.
func buildAdjacency(n int, edges []Edge, both bool) (*tensor.CSR, error) {
	total := 0
	for i, e := range edges {
		u, v := e[0], e[1]
		if u < 0 || int(u) >= n || v < 0 || int(v) >= n {
			return nil, fmt.Errorf("edge %d (%d, %d) names a node outside [0, %d)", i, u, v, n)
		}
		if u != v {
			total++
		}
	}
	if both {
		total *= 2
	}
	if total > math.MaxInt32 {
		return nil, fmt.Errorf("%d adjacency entries exceed the int32 index range", total)
	}
	parts := 1
	if len(edges) >= 1<<16 {
		parts = min(runtime.GOMAXPROCS(0), 8, n)
	}
	bounds := make([]int32, parts+1) // goroutine t owns rows [bounds[t], bounds[t+1])
	for t := range bounds {
		bounds[t] = int32(n * t / parts)
	}
	ptr := make([]int32, n+1)
	each := func(fn func(lo, hi int32)) {
		var wg sync.WaitGroup
		for t := range parts {
			wg.Go(func() { fn(bounds[t], bounds[t+1]) })
		}
		wg.Wait()
	}
	// degrees: ptr[r+1] counts row r
	each(func(lo, hi int32) {
		for _, e := range edges {
			u, v := e[0], e[1]
			if u == v {
				continue
			}
			if u >= lo && u < hi {
				ptr[u+1]++
			}
			if both && v >= lo && v < hi {
				ptr[v+1]++
			}
		}
	})
	for i := range n {
		ptr[i+1] += ptr[i]
	}
	// placement in edge order, then a sort of each row
	col := make([]int32, total)
	next := make([]int32, n)
	copy(next, ptr[:n])
	each(func(lo, hi int32) {
		for _, e := range edges {
			u, v := e[0], e[1]
			if u == v {
				continue
			}
			if u >= lo && u < hi {
				col[next[u]] = v
				next[u]++
			}
			if both && v >= lo && v < hi {
				col[next[v]] = u
				next[v]++
			}
		}
		for i := lo; i < hi; i++ {
			slices.Sort(col[ptr[i]:ptr[i+1]])
		}
	})
	next = nil
	// drop duplicates, compacting in place: the write position never passes
	// the read position
	w := int32(0)
	lo := int32(0)
	for i := range n {
		hi := ptr[i+1]
		ptr[i] = w
		for k := lo; k < hi; k++ {
			if k > lo && col[k] == col[k-1] {
				continue
			}
			col[w] = col[k]
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
