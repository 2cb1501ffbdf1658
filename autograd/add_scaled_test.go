package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestAddScaledGrad(t *testing.T) {
	check(t, "AddScaled", func(tp *Tape, p []*Var) *Var { return tp.AddScaled(p[0], 0.7, p[1], -1.3) },
		testkit.RandDense(7, 5, 31), testkit.RandDense(7, 5, 32))
	// the same input on both sides gets both gradients
	check(t, "AddScaled(x, x)", func(tp *Tape, p []*Var) *Var { return tp.AddScaled(p[0], 0.7, p[0], 2) },
		testkit.RandDense(3, 4, 33))
}

// TestAddScaledMatchesScaleAdd checks that the fused operation gives the bits
// of Add(Scale(a, ca), Scale(b, cb)), values and gradients.
func TestAddScaledMatchesScaleAdd(t *testing.T) {
	a, b := testkit.RandDense(129, 7, 34), testkit.RandDense(129, 7, 35)
	run := func(fused bool) (out, ga, gb []float32) {
		tp := NewTape(tensor.Exec{Threads: 2})
		pa, pb := NewParam("a", a.Clone()), NewParam("b", b.Clone())
		var y *Var
		if fused {
			y = tp.AddScaled(pa, 0.3, pb, 0.9)
		} else {
			y = tp.Add(tp.Scale(pa, 0.3), tp.Scale(pb, 0.9))
		}
		out = y.Value.Clone().Data
		tp.Backward(tp.Sum(tp.Mul(y, tp.Const(b))))
		return out, pa.Grad.Data, pb.Grad.Data
	}
	o1, a1, b1 := run(true)
	o2, a2, b2 := run(false)
	for i := range o1 {
		if o1[i] != o2[i] || a1[i] != a2[i] || b1[i] != b2[i] {
			t.Fatalf("element %d: fused %v %v %v, unfused %v %v %v", i, o1[i], a1[i], b1[i], o2[i], a2[i], b2[i])
		}
	}
}
