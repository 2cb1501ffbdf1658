package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestEdgeGatherAddGrad(t *testing.T) {
	for _, s := range [][3]int{{1, 1, 1}, {5, 5, 1}, {7, 4, 3}} {
		pat := testkit.RandCSR(s[0], s[1], 0.5, 19)
		check(t, "EdgeGatherAdd", func(tp *Tape, p []*Var) *Var { return tp.EdgeGatherAdd(pat, p[0], p[1]) },
			testkit.RandDense(s[0], s[2], 20), testkit.RandDense(s[1], s[2], 21))
	}
}

func TestEdgeGatherAddValue(t *testing.T) {
	tp := NewTape(tensor.Serial)
	pat := tensor.FromTriplets(2, 3, []tensor.Triplet{{Row: 0, Col: 2, Val: 1}, {Row: 1, Col: 0, Val: 1}, {Row: 1, Col: 1, Val: 1}})
	src := tp.Const(tensor.FromRows([][]float32{{1, 10}, {2, 20}}))
	dst := tp.Const(tensor.FromRows([][]float32{{100, 1000}, {200, 2000}, {300, 3000}}))
	want := []float32{301, 3010, 102, 1020, 202, 2020}
	got := tp.EdgeGatherAdd(pat, src, dst).Value.Data
	for k, w := range want {
		if got[k] != w {
			t.Fatalf("EdgeGatherAdd = %v, want %v", got, want)
		}
	}
}
