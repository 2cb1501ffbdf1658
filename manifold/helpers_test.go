package manifold

import (
	"math"
	"slices"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// blobAffinities returns the symmetric affinities P of testkit.Blobs(n, d,
// classes, spread, seed) over k nearest neighbours at the given perplexity.
func blobAffinities(n, d, classes int, spread float64, seed uint64, k int, perplexity float64) *sparseP {
	x, _ := testkit.Blobs(n, d, classes, spread, seed)
	idx, d2 := nearestNeighbors(tensor.Serial, toFloat64(x), n, d, k)
	return symmetrize(idx, conditionalAffinities(tensor.Serial, d2, n, k, perplexity), n, k)
}

// toFloat64 copies the matrix's data.
func toFloat64(x *tensor.Dense) []float64 {
	out := make([]float64, len(x.Data))
	for i, v := range x.Data {
		out[i] = float64(v)
	}
	return out
}

// neighborSets returns each point's k nearest other points by sorting all
// distances (the slow, obvious way).
func neighborSets(x []float64, n, d, k int) [][]int32 {
	out := make([][]int32, n)
	for i := 0; i < n; i++ {
		type cand struct {
			j int32
			s float64
		}
		var c []cand
		for j := 0; j < n; j++ {
			if j == i {
				continue
			}
			var s float64
			for t := 0; t < d; t++ {
				v := x[i*d+t] - x[j*d+t]
				s += v * v
			}
			c = append(c, cand{int32(j), s})
		}
		slices.SortFunc(c, func(a, b cand) int {
			if a.s != b.s {
				if a.s < b.s {
					return -1
				}
				return 1
			}
			return int(a.j - b.j)
		})
		for _, e := range c[:k] {
			out[i] = append(out[i], e.j)
		}
	}
	return out
}

// neighborPreservation is the mean fraction of each point's k nearest
// neighbours in a that are also among its k nearest in b.
func neighborPreservation(a []float64, da int, b []float64, db, n, k int) float64 {
	na, nb := neighborSets(a, n, da, k), neighborSets(b, n, db, k)
	var total float64
	for i := 0; i < n; i++ {
		hit := 0
		for _, j := range na[i] {
			if slices.Contains(nb[i], j) {
				hit++
			}
		}
		total += float64(hit) / float64(k)
	}
	return total / float64(n)
}

// exactRepulsion is Σ_{j≠i} w_ij²(y_i − y_j) and Σ_{j≠i} w_ij, pair by pair.
func exactRepulsion(y []float64, i int) (fx, fy, z float64) {
	for j := 0; j < len(y)/2; j++ {
		if j == i {
			continue
		}
		dx, dy := y[2*i]-y[2*j], y[2*i+1]-y[2*j+1]
		w := 1 / (1 + dx*dx + dy*dy)
		z += w
		fx += w * w * dx
		fy += w * w * dy
	}
	return
}

// approxEq reports |a − b| ≤ tol·max(1, |a|, |b|).
func approxEq(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*max(1, math.Abs(a), math.Abs(b))
}
