package manifold

import (
	"testing"

	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

func TestNearestNeighborsMatchesSort(t *testing.T) {
	// Integer coordinates on a small grid force many distance ties, which
	// must be broken by index.
	const n, d, k = 250, 3, 12
	r := rng.New(9)
	x := make([]float64, n*d)
	for i := range x {
		x[i] = float64(r.IntN(4))
	}
	want := neighborSets(x, n, d, k)
	for _, threads := range []int{1, 2, 3} {
		idx, d2 := nearestNeighbors(tensor.Exec{Threads: threads}, x, n, d, k)
		for i := 0; i < n; i++ {
			for rnk := 0; rnk < k; rnk++ {
				j := want[i][rnk]
				if idx[i*k+rnk] != j {
					t.Fatalf("threads %d: point %d neighbour %d = %d, want %d", threads, i, rnk, idx[i*k+rnk], j)
				}
				var s float64
				for c := 0; c < d; c++ {
					v := x[i*d+c] - x[int(j)*d+c]
					s += v * v
				}
				if d2[i*k+rnk] != s {
					t.Fatalf("distance %v, want %v", d2[i*k+rnk], s)
				}
			}
		}
	}
}
