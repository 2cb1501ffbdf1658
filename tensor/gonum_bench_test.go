package tensor

import (
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// BenchmarkGonumGemm times gonum's pure-Go blas32.Gemm (which parallelises
// over GOMAXPROCS itself) on the shapes of BenchmarkGemm, for the comparison
// in BENCHMARKS.md.
func BenchmarkGonumGemm(b *testing.B) {
	gen := func(d *Dense) blas32.General {
		return blas32.General{Rows: d.Rows, Cols: d.Cols, Stride: d.Cols, Data: d.Data}
	}
	tr := func(t bool) blas.Transpose {
		if t {
			return blas.Trans
		}
		return blas.NoTrans
	}
	for _, s := range gemmShapes {
		b.Run(s.name, func(b *testing.B) {
			x, y, c := gemmOperands(s)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				blas32.Gemm(tr(s.transA), tr(s.tran), 1, gen(x), gen(y), 0, gen(c))
			}
			b.ReportMetric(2*float64(s.m)*float64(s.k)*float64(s.n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// TestGonumAgrees checks the comparison is like for like: gonum and Gemm
// agree on a transposed product.
func TestGonumAgrees(t *testing.T) {
	r := newRand(9)
	a, bb := randDense(r, 37, 29), randDense(r, 41, 37)
	c1, c2 := NewDense(29, 41), NewDense(29, 41)
	Gemm(Serial, true, true, 1, a, bb, 0, c1)
	blas32.Gemm(blas.Trans, blas.Trans, 1,
		blas32.General{Rows: 37, Cols: 29, Stride: 29, Data: a.Data},
		blas32.General{Rows: 41, Cols: 37, Stride: 37, Data: bb.Data}, 0,
		blas32.General{Rows: 29, Cols: 41, Stride: 41, Data: c2.Data})
	want := make([]float64, len(c2.Data))
	scale := make([]float64, len(c2.Data))
	for i, v := range c2.Data {
		want[i] = float64(v)
		scale[i] = 40
	}
	checkClose(t, "Gemm vs gonum", c1.Data, want, scale)
}
