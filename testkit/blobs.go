package testkit

import (
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// Blobs returns n points in d dimensions around k Gaussian centres (point i
// in class i%k) with unit noise, the centres drawn at standard deviation
// spread: the labelled point cloud of the t-SNE, silhouette and scatter-plot
// tests.
func Blobs(n, d, k int, spread float64, seed uint64) (*tensor.Dense, []int32) {
	r := rng.New(seed)
	centres := make([][]float64, k)
	for c := range centres {
		centres[c] = make([]float64, d)
		for j := range centres[c] {
			centres[c][j] = spread * r.NormFloat64()
		}
	}
	x := tensor.NewDense(n, d)
	labels := make([]int32, n)
	for i := 0; i < n; i++ {
		c := i % k
		labels[i] = int32(c)
		for j := 0; j < d; j++ {
			x.Set(i, j, float32(centres[c][j]+r.NormFloat64()))
		}
	}
	return x, labels
}
