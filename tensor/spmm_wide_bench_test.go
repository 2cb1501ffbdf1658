package tensor_test

import (
	"fmt"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// BenchmarkSpMMWide times Â·H and Âᵀ·H on one thread at the widths of the
// fair study's classic GNNs (256 and 512 hidden), on the real Tolokers and
// Squirrel graphs: the sparse products of the searches that dominate the
// study's CPU time (BENCHMARKS.md "The fair study's wide models").
func BenchmarkSpMMWide(b *testing.B) {
	mirror := datatest.Mirror(b)
	for _, ds := range []string{"tolokers", "squirrel"} {
		g, err := datasets.Load(ds, datasets.Options{DataDir: mirror, Offline: true})
		if err != nil {
			b.Fatal(err)
		}
		a := g.AHat()
		mean := meanAdjacency(b, g.Adj)
		for _, n := range []int{256, 512} {
			h := tensor.NewDense(a.Cols, n)
			for i := range h.Data {
				h.Data[i] = float32(i%17) * 0.01
			}
			benchSpMMBothWays(b, ds, fmt.Sprintf("n=%d", n), a, h)
			// GraphSAGE's D⁻¹A: not symmetric, so its transposed product
			// reads the values through a permutation
			benchSpMMBothWays(b, ds, fmt.Sprintf("mean/n=%d", n), mean, h)
		}
	}
}

// meanAdjacency returns D⁻¹A of an adjacency (GraphSAGE's mean aggregation,
// as models builds it).
func meanAdjacency(b *testing.B, adj *tensor.CSR) *tensor.CSR {
	val := make([]float32, adj.NNZ())
	for i := range adj.Rows {
		lo, hi := adj.RowPtr[i], adj.RowPtr[i+1]
		for k := lo; k < hi; k++ {
			val[k] = 1 / float32(hi-lo)
		}
	}
	m, err := tensor.NewCSR(adj.Rows, adj.Cols, adj.RowPtr, adj.ColIdx, val)
	if err != nil {
		b.Fatal(err)
	}
	return m
}
