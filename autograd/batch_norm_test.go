package autograd

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestBatchNormGrad(t *testing.T) {
	for i, s := range [][2]int{{5, 3}, {7, 4}, {12, 2}} {
		check(t, "BatchNorm", func(tp *Tape, p []*Var) *Var { return tp.BatchNorm(p[0], 1e-3) },
			testkit.RandDense(s[0], s[1], uint64(900+i)))
	}
}

func TestBatchNormValue(t *testing.T) {
	tp := NewTape(tensor.Serial)
	x := tp.Const(tensor.FromRows([][]float32{{1, 2, 7}, {3, 2, 7}, {5, 8, 7}}))
	got := tp.BatchNorm(x, 0.5).Value
	// column 0: mean 3, variance 8/3; column 1: mean 4, variance 8; column 2
	// is constant, so it maps to 0 whatever eps is.
	s0, s1 := 1/math.Sqrt(8.0/3+0.5), 1/math.Sqrt(8+0.5)
	want := []float64{-2 * s0, -2 * s1, 0, 0, -2 * s1, 0, 2 * s0, 4 * s1, 0}
	for k, w := range want {
		if math.Abs(float64(got.Data[k])-w) > 1e-6 {
			t.Errorf("BatchNorm[%d] = %g, want %g", k, got.Data[k], w)
		}
	}
}

func TestBatchNormThreadsAgree(t *testing.T) {
	x := testkit.RandDense(257, 9, 31)
	serial := NewTape(tensor.Serial)
	par := NewTape(tensor.Exec{Threads: 4})
	a := serial.BatchNorm(serial.Const(x), 1e-3).Value
	b := par.BatchNorm(par.Const(x), 1e-3).Value
	for k := range a.Data {
		if a.Data[k] != b.Data[k] {
			t.Fatalf("element %d: serial %g, 4 threads %g", k, a.Data[k], b.Data[k])
		}
	}
}
