package manifold

import "github.com/pcgcn/pcgcn/tensor"

// nearestNeighbors returns, for each of the n rows of the row-major n×d
// matrix x, its k nearest other rows by Euclidean distance: idx[i*k+r] is the
// r-th neighbour of i and dist2[i*k+r] its squared distance, in increasing
// (distance, index) order. It compares every pair (O(n²·d)); rows are shared
// among goroutines and each row's search is serial, so the answer does not
// depend on the number of goroutines.
func nearestNeighbors(ex tensor.Exec, x []float64, n, d, k int) (idx []int32, dist2 []float64) {
	idx = make([]int32, n*k)
	dist2 = make([]float64, n*k)
	if k == 0 {
		return idx, dist2
	}
	ex.For(n, n*n*d, func(lo, hi int) {
		var h neighborHeap
		h.idx = make([]int32, 0, k)
		h.dist = make([]float64, 0, k)
		for i := lo; i < hi; i++ {
			h.idx, h.dist = h.idx[:0], h.dist[:0]
			xi := x[i*d : (i+1)*d]
			for j := 0; j < n; j++ {
				if j == i {
					continue
				}
				xj := x[j*d : (j+1)*d]
				full := len(h.idx) == k
				worst := 0.0
				if full {
					worst = h.dist[0]
				}
				var s float64
				for c, v := range xi {
					t := v - xj[c]
					s += t * t
				}
				if full && (s > worst || s == worst && int32(j) > h.idx[0]) {
					continue
				}
				h.push(int32(j), s, k)
			}
			// Pop the max-heap from the back to get increasing order.
			out, outD := idx[i*k:(i+1)*k], dist2[i*k:(i+1)*k]
			for r := k - 1; r >= 0; r-- {
				out[r], outD[r] = h.idx[0], h.dist[0]
				h.pop()
			}
		}
	})
	return idx, dist2
}

// neighborHeap is a max-heap of candidates keyed by (distance, index).
type neighborHeap struct {
	idx  []int32
	dist []float64
}

// after reports whether entry a comes after entry b (is farther).
func (h *neighborHeap) after(a, b int) bool {
	if h.dist[a] != h.dist[b] {
		return h.dist[a] > h.dist[b]
	}
	return h.idx[a] > h.idx[b]
}

func (h *neighborHeap) swap(a, b int) {
	h.idx[a], h.idx[b] = h.idx[b], h.idx[a]
	h.dist[a], h.dist[b] = h.dist[b], h.dist[a]
}

// push adds (j, s), dropping the farthest entry when the heap already holds k.
func (h *neighborHeap) push(j int32, s float64, k int) {
	if len(h.idx) == k {
		h.idx[0], h.dist[0] = j, s
		h.down(0)
		return
	}
	h.idx = append(h.idx, j)
	h.dist = append(h.dist, s)
	for c := len(h.idx) - 1; c > 0; {
		p := (c - 1) / 2
		if !h.after(c, p) {
			break
		}
		h.swap(c, p)
		c = p
	}
}

// pop removes the farthest entry.
func (h *neighborHeap) pop() {
	last := len(h.idx) - 1
	h.swap(0, last)
	h.idx, h.dist = h.idx[:last], h.dist[:last]
	h.down(0)
}

func (h *neighborHeap) down(p int) {
	n := len(h.idx)
	for {
		c := 2*p + 1
		if c >= n {
			return
		}
		if c+1 < n && h.after(c+1, c) {
			c++
		}
		if !h.after(c, p) {
			return
		}
		h.swap(c, p)
		p = c
	}
}
