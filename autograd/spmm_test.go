package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestSpMMGrad(t *testing.T) {
	for _, s := range [][3]int{{1, 1, 1}, {5, 4, 3}, {7, 9, 2}} {
		a := testkit.RandCSR(s[0], s[1], 0.4, 3)
		check(t, "SpMM", func(tp *Tape, p []*Var) *Var { return tp.SpMM(a, p[0]) }, testkit.RandDense(s[1], s[2], 4))
	}
}

// TestSpMMSymmetricGrad uses a symmetric matrix marked as such, so the
// backward takes tensor.SpMMT's symmetric shortcut.
func TestSpMMSymmetricGrad(t *testing.T) {
	a := testkit.RandCSR(6, 6, 0.5, 5)
	var ts []tensor.Triplet
	d := a.ToDense()
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			if v := d.At(i, j) + d.At(j, i); v != 0 {
				ts = append(ts, tensor.Triplet{Row: int32(i), Col: int32(j), Val: v})
			}
		}
	}
	sym := tensor.FromTriplets(6, 6, ts).MarkSymmetric()
	check(t, "SpMM symmetric", func(tp *Tape, p []*Var) *Var { return tp.SpMM(sym, p[0]) }, testkit.RandDense(6, 3, 6))
}

func TestSpMMValue(t *testing.T) {
	tp := NewTape(tensor.Serial)
	a := tensor.FromTriplets(2, 3, []tensor.Triplet{{Row: 0, Col: 2, Val: 2}, {Row: 1, Col: 0, Val: -1}})
	x := tp.Const(tensor.FromRows([][]float32{{1, 2}, {3, 4}, {5, 6}}))
	want := []float32{10, 12, -1, -2}
	for k, v := range tp.SpMM(a, x).Value.Data {
		if v != want[k] {
			t.Fatalf("SpMM element %d = %v, want %v", k, v, want[k])
		}
	}
}
