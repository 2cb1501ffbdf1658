package autograd

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestLayerNormGrad(t *testing.T) {
	for i, s := range [][2]int{{3, 5}, {4, 7}, {2, 12}} {
		check(t, "LayerNorm", func(tp *Tape, p []*Var) *Var { return tp.LayerNorm(p[0], 1e-3) },
			testkit.RandDense(s[0], s[1], uint64(950+i)))
	}
	// through a non-linear function of the output, so that the projection
	// terms of the backward formula matter
	check(t, "LayerNorm·w", func(tp *Tape, p []*Var) *Var { return tp.Mul(tp.LayerNorm(p[0], 1e-5), p[1]) },
		testkit.RandDense(6, 5, 960), testkit.RandDense(6, 5, 961))
}

// TestLayerNormMatchesFloat64 compares LayerNorm with the float64 formula on
// random rows, including a constant row (which maps to 0 whatever eps is).
func TestLayerNormMatchesFloat64(t *testing.T) {
	x := testkit.RandDense(9, 11, 962)
	for j := 0; j < x.Cols; j++ {
		x.Set(4, j, 3)
	}
	tp := NewTape(tensor.Serial)
	got := tp.LayerNorm(tp.Const(x), 1e-5).Value
	for i := 0; i < x.Rows; i++ {
		var mu, v float64
		for j := 0; j < x.Cols; j++ {
			mu += float64(x.At(i, j))
		}
		mu /= float64(x.Cols)
		for j := 0; j < x.Cols; j++ {
			d := float64(x.At(i, j)) - mu
			v += d * d
		}
		v /= float64(x.Cols)
		for j := 0; j < x.Cols; j++ {
			want := (float64(x.At(i, j)) - mu) / math.Sqrt(v+1e-5)
			if math.Abs(float64(got.At(i, j))-want) > 1e-5 {
				t.Errorf("LayerNorm[%d,%d] = %g, want %g", i, j, got.At(i, j), want)
			}
		}
	}
}

func TestLayerNormThreadsAgree(t *testing.T) {
	x := testkit.RandDense(257, 9, 963)
	serial := NewTape(tensor.Serial)
	par := NewTape(tensor.Exec{Threads: 4})
	a := serial.LayerNorm(serial.Const(x), 1e-5).Value
	b := par.LayerNorm(par.Const(x), 1e-5).Value
	for k := range a.Data {
		if a.Data[k] != b.Data[k] {
			t.Fatalf("element %d: serial %g, 4 threads %g", k, a.Data[k], b.Data[k])
		}
	}
}
