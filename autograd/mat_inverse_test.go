package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestMatInverseValue(t *testing.T) {
	// [[2,1],[5,3]]⁻¹ = [[3,−1],[−5,2]] (determinant 1); the zero pivot of
	// [[0,1],[1,0]] needs a row swap and the matrix is its own inverse.
	tp := NewTape(tensor.Serial)
	cases := []struct{ a, want []float32 }{
		{[]float32{2, 1, 5, 3}, []float32{3, -1, -5, 2}},
		{[]float32{0, 1, 1, 0}, []float32{0, 1, 1, 0}},
	}
	for _, c := range cases {
		got := tp.MatInverse(tp.Const(&tensor.Dense{Rows: 2, Cols: 2, Data: c.a})).Value.Data
		for k := range c.want {
			if !testkit.Near(got[k], c.want[k], 1e-6) {
				t.Errorf("inverse of %v = %v, want %v", c.a, got, c.want)
				break
			}
		}
	}
}

func TestMatInverseGrad(t *testing.T) {
	for _, k := range []int{1, 3, 4} {
		a := testkit.RandDense(k, k, uint64(40+k))
		for i := 0; i < k; i++ {
			a.Data[i*k+i] += 3 // well conditioned
		}
		check(t, "MatInverse", func(tp *Tape, p []*Var) *Var { return tp.MatInverse(p[0]) }, a)
	}
}

func TestMatInverseSingularPanics(t *testing.T) {
	testkit.Panics(t, "MatInverse of a singular matrix", func() {
		tp := NewTape(tensor.Serial)
		tp.MatInverse(tp.Const(&tensor.Dense{Rows: 2, Cols: 2, Data: []float32{1, 2, 2, 4}}))
	})
}
