//go:build amd64 && !purego

package simd

import "testing"

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
