package tensor_test

import (
	"fmt"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// BenchmarkSpMMStacked times one pass of Â over the hidden states of k
// models side by side (an n×64k matrix: what a stacked group of k PCGCN
// models of hidden size 64 would multiply) on one thread, on the real
// Chameleon, Squirrel and Actor graphs. Against k times the k=1 row it says
// whether sharing the pass over Â pays (issue 37, item 2; BENCHMARKS.md "One
// pass over Â for several models, measured").
func BenchmarkSpMMStacked(b *testing.B) {
	mirror := datatest.Mirror(b)
	for _, ds := range []string{"chameleon", "squirrel", "actor"} {
		g, err := datasets.Load(ds, datasets.Options{DataDir: mirror, Offline: true})
		if err != nil {
			b.Fatal(err)
		}
		a := g.AHat()
		for _, k := range []int{1, 2, 4} {
			h := tensor.NewDense(a.Cols, 64*k)
			for i := range h.Data {
				h.Data[i] = float32(i%17) * 0.01
			}
			benchSpMMBothWays(b, ds, fmt.Sprintf("k=%d", k), a, h)
		}
	}
}

// benchSpMMBothWays times Â·h and Âᵀ·h on one thread, as the
// sub-benchmarks <ds>/SpMM/<tag> and <ds>/SpMMT/<tag>.
func benchSpMMBothWays(b *testing.B, ds, tag string, a *tensor.CSR, h *tensor.Dense) {
	out := tensor.NewDense(a.Rows, h.Cols)
	for _, v := range []struct {
		name string
		e    tensor.Exec
	}{
		{"", tensor.Exec{Threads: 1}},
		// with a Scratch, as training runs: wide products of a dense
		// enough Â take the packed column panels (spmm_panels.go)
		{"/scratch", tensor.Exec{Threads: 1, Scratch: &tensor.Scratch{}}},
	} {
		b.Run(ds+"/SpMM/"+tag+v.name, func(b *testing.B) {
			for b.Loop() {
				tensor.SpMM(v.e, 1, a, h, 0, out)
			}
		})
		b.Run(ds+"/SpMMT/"+tag+v.name, func(b *testing.B) {
			for b.Loop() {
				tensor.SpMMT(v.e, 1, a, h, 0, out)
			}
		})
	}
}
