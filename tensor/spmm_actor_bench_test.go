package tensor_test

import (
	"fmt"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// BenchmarkSpMMActor is PCGCN's 64-wide Â·(H̄W) on Actor's real Â (7,600
// rows, 60,918 entries: b is 1.9 MB, more than one core's L2), beta 0 (the
// forward) and 1 (the backward's Âᵀ·G into a gradient), at one and two
// threads, with b either left in the caches by the call before ("hot") or
// rewritten before each call, as the product before it in a training step
// leaves it ("fresh": the copy is not timed). The fresh case is the one a
// step sees (issue 37, BENCHMARKS.md).
func BenchmarkSpMMActor(b *testing.B) {
	g, err := datasets.Load("actor", datasets.Options{DataDir: datatest.Mirror(b), Offline: true})
	if err != nil {
		b.Fatal(err)
	}
	a := g.AHat()
	x := tensor.NewDense(a.Cols, 64)
	for i := range x.Data {
		x.Data[i] = float32(i%97) * 0.01
	}
	src := x.Clone()
	c := tensor.NewDense(a.Rows, 64)
	for _, th := range []int{1, 2} {
		e, stop := tensor.StartExec(th)
		for _, beta := range []float32{0, 1} {
			for _, fresh := range []bool{false, true} {
				name := map[bool]string{false: "hot", true: "fresh"}[fresh]
				b.Run(fmt.Sprintf("threads%d_beta%v_%s", th, beta, name), func(b *testing.B) {
					for b.Loop() {
						if fresh {
							b.StopTimer()
							copy(x.Data, src.Data)
							b.StartTimer()
						}
						tensor.SpMM(e, 1, a, x, beta, c)
					}
				})
			}
		}
		stop()
	}
}
