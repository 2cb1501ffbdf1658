package manifold

import (
	"fmt"
	"math"
	"slices"

	"github.com/pcgcn/pcgcn/tensor"
)

// Silhouette returns the mean silhouette coefficient (Rousseeuw 1987) of the
// rows of points grouped by labels, under the Euclidean distance:
// s(i) = (b − a) / max(a, b), where a is the mean distance from i to the other
// members of its class and b the smallest mean distance from i to the members
// of another class. A point alone in its class has s = 0, and so has a point
// with a = b = 0 (scikit-learn's conventions). The value lies in [−1, 1]:
// near 1 when classes form tight, distant groups, near 0 when they overlap.
//
// Labels may be any int32 values. It returns NaN when there are fewer than
// two distinct labels, and panics when len(labels) != points.Rows. It compares
// every pair of points (O(n²·d)) on threads goroutines (0 or less:
// GOMAXPROCS); each point's sums run in a fixed order, so the result does not
// depend on threads.
func Silhouette(points *tensor.Dense, labels []int32, threads int) float64 {
	n, d := points.Rows, points.Cols
	if len(labels) != n {
		panic(fmt.Sprintf("embed: Silhouette: %d labels for %d points", len(labels), n))
	}
	classes := slices.Compact(slices.Sorted(slices.Values(labels)))
	if len(classes) < 2 {
		return math.NaN()
	}
	class := make([]int, n)
	size := make([]int, len(classes))
	for i, l := range labels {
		c, _ := slices.BinarySearch(classes, l)
		class[i] = c
		size[c]++
	}
	s := make([]float64, n)
	ex := tensor.Exec{Threads: threads}
	ex.For(n, n*n*d, func(lo, hi int) {
		sum := make([]float64, len(classes))
		for i := lo; i < hi; i++ {
			clear(sum)
			xi := points.Row(i)
			for j := 0; j < n; j++ {
				xj := points.Row(j)
				var d2 float64
				for c, v := range xi {
					t := float64(v) - float64(xj[c])
					d2 += t * t
				}
				sum[class[j]] += math.Sqrt(d2)
			}
			own := class[i]
			if size[own] < 2 {
				continue // s(i) = 0
			}
			a := sum[own] / float64(size[own]-1)
			b := math.Inf(1)
			for c, t := range sum {
				if c != own {
					b = min(b, t/float64(size[c]))
				}
			}
			if m := max(a, b); m > 0 {
				s[i] = (b - a) / m
			}
		}
	})
	var total float64
	for _, v := range s {
		total += v
	}
	return total / float64(n)
}
