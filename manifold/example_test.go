package manifold_test

import (
	"fmt"

	"github.com/pcgcn/pcgcn/manifold"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// Three well-separated Gaussian clouds in 10 dimensions keep apart in the
// 2-D t-SNE layout, and the silhouette score says so.
func ExampleTSNE() {
	const n, d, k = 150, 10, 3
	r := rng.New(1)
	x := tensor.NewDense(n, d)
	labels := make([]int32, n)
	for i := 0; i < n; i++ {
		labels[i] = int32(i % k)
		for j := 0; j < d; j++ {
			centre := 0.0
			if j == int(labels[i]) {
				centre = 10 // class c sits 10 units along axis c
			}
			x.Set(i, j, float32(centre+r.NormFloat64()))
		}
	}
	y, err := manifold.TSNE(x, manifold.Options{Perplexity: 20, Iterations: 500, Seed: 7})
	if err != nil {
		panic(err)
	}
	fmt.Println("layout:", y.Shape())
	fmt.Printf("silhouette of the input:  %.1f\n", manifold.Silhouette(x, labels, 0))
	fmt.Printf("silhouette of the layout: %.1f\n", manifold.Silhouette(y, labels, 0))
	// Output:
	// layout: 150×2
	// silhouette of the input:  0.7
	// silhouette of the layout: 0.9
}
