//go:build amd64 && !purego

package simd

import (
	"fmt"
	"math"
	"testing"
)

// BenchmarkGemmTile6x16 times the largest tile in cache, the ceiling of
// tensor.Gemm on one core.
func BenchmarkGemmTile6x16(b *testing.B) {
	requireVector(b)
	const kc = 256
	a := make([]float32, 6*kc)
	bb := make([]float32, kc*16)
	c := make([]float32, 6*16)
	for b.Loop() {
		GemmTile(6, 16, kc, 1, a, kc, 1, bb, 16, c, 16)
	}
	b.ReportMetric(2*6*16*kc*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkBandwidthAXPY streams y = x·c + y (8 bytes read and 4 written an
// element) on one goroutine over arrays that fit in L1 (2 × 8 KiB), in L2
// (2 × 256 KiB), in L3 (2 × 4 MiB) and in none (2 × 64 MiB): the speed of an
// element-wise pass over a hidden layer at each level, the memory side of
// the epoch floors in BENCHMARKS.md ("Small graphs", session 42).
func BenchmarkBandwidthAXPY(b *testing.B) {
	requireVector(b)
	for _, kib := range []int{8, 256, 4096, 65536} {
		b.Run(fmt.Sprintf("KiB=%d", kib), func(b *testing.B) {
			n := kib * 1024 / 4
			x, y := make([]float32, n), make([]float32, n)
			b.SetBytes(int64(12 * n))
			for b.Loop() {
				AXPY(0.5, x, y)
			}
		})
	}
}

// BenchmarkExp64 and BenchmarkMathExp time the cross-entropy's
// exponentials, 256 at a time, vector and scalar.
func BenchmarkExp64(b *testing.B) {
	requireVector(b)
	x := make([]float64, 256)
	for b.Loop() {
		for i := range x {
			x[i] = -float64(i%7) * 0.5
		}
		Exp64(x)
	}
}

func BenchmarkMathExp(b *testing.B) {
	x := make([]float64, 256)
	for b.Loop() {
		for i := range x {
			x[i] = math.Exp(-float64(i%7) * 0.5)
		}
	}
}
