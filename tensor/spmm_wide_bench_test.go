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
		for _, n := range []int{256, 512} {
			h := tensor.NewDense(a.Cols, n)
			for i := range h.Data {
				h.Data[i] = float32(i%17) * 0.01
			}
			benchSpMMBothWays(b, ds, fmt.Sprintf("n=%d", n), a, h)
		}
	}
}
