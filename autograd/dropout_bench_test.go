package autograd

import (
	"testing"
	"time"

	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// BenchmarkDropout times the forward and backward of dropout on a
// Chameleon-sized hidden layer (2277×64) on one goroutine.
func BenchmarkDropout(b *testing.B) {
	x := NewParam("x", tensor.NewDense(2277, 64))
	for i := range x.Value.Data {
		x.Value.Data[i] = float32(i%7) - 3
	}
	t := NewTape(tensor.Serial)
	t.Training = true
	t.RNG = rng.New(1)
	b.SetBytes(int64(4 * len(x.Value.Data)))
	for b.Loop() {
		t.Reset()
		y := t.Dropout(x, 0.5)
		t.Backward(t.Sum(y))
	}
}

// BenchmarkDropMask times the mask alone on 1<<20 elements at p = 0.5,
// writing and accumulating, the portable Go loop against applyRange (the
// vector kernel when there is one). Each iteration runs both, one after the
// other, so that a busy machine slows them alike; go-ns and vec-ns are their
// times per iteration and go/vec their ratio.
func BenchmarkDropMask(b *testing.B) {
	const n = 1 << 20
	m := dropMask{s: rng.NewStream(1), thr: 32768, scale: 2}
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i] = float32(i%7) - 3
	}
	for _, acc := range []bool{false, true} {
		name := "write"
		if acc {
			name = "acc"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(4 * n)
			var tGo, tVec time.Duration
			for b.Loop() {
				t0 := time.Now()
				m.applyRangeGo(x, y, 0, n, acc)
				t1 := time.Now()
				m.applyRange(x, y, 0, n, acc)
				tVec += time.Since(t1)
				tGo += t1.Sub(t0)
			}
			b.ReportMetric(float64(tGo.Nanoseconds())/float64(b.N), "go-ns")
			b.ReportMetric(float64(tVec.Nanoseconds())/float64(b.N), "vec-ns")
			b.ReportMetric(float64(tGo)/float64(tVec), "go/vec")
		})
	}
}
