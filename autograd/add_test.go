package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// binaryOps are the broadcasting binary operations.
var binaryOps = map[string]func(tp *Tape, x, y *Var) *Var{
	"Add": (*Tape).Add, "Sub": (*Tape).Sub, "Mul": (*Tape).Mul,
}

// bShapes are b's shapes for a 5×3 a: same, row, column, scalar.
var bShapes = [][2]int{{5, 3}, {1, 3}, {5, 1}, {1, 1}}

func TestBinaryBroadcastGrad(t *testing.T) {
	a := testkit.RandDense(5, 3, 1)
	for _, bs := range bShapes {
		b := testkit.RandDense(bs[0], bs[1], 3)
		for name, op := range binaryOps {
			check(t, name, func(tp *Tape, p []*Var) *Var { return op(tp, p[0], p[1]) }, a, b)
		}
	}
}

// TestBinaryBroadcastParamOnly checks the gradient of a broadcast parameter b
// (e.g. a learnable scalar) when a is a constant, and the values of each kind.
func TestBinaryBroadcastParamOnly(t *testing.T) {
	a := testkit.RandDense(5, 3, 4)
	for _, bs := range bShapes {
		for name, op := range binaryOps {
			check(t, name+" const a", func(tp *Tape, p []*Var) *Var { return op(tp, tp.Const(a), p[0]) },
				testkit.RandDense(bs[0], bs[1], 5))
		}
	}
}

func TestBinaryBroadcastValues(t *testing.T) {
	tp := NewTape(tensor.Serial)
	a := tp.Const(tensor.FromRows([][]float32{{1, 2}, {3, 4}}))
	for _, c := range []struct {
		b    *tensor.Dense
		add  []float32
		mul  []float32
		name string
	}{
		{tensor.FromRows([][]float32{{1, 2}, {3, 4}}), []float32{2, 4, 6, 8}, []float32{1, 4, 9, 16}, "same"},
		{tensor.FromRows([][]float32{{10, 20}}), []float32{11, 22, 13, 24}, []float32{10, 40, 30, 80}, "row"},
		{tensor.FromRows([][]float32{{10}, {20}}), []float32{11, 12, 23, 24}, []float32{10, 20, 60, 80}, "col"},
		{tensor.FromRows([][]float32{{10}}), []float32{11, 12, 13, 14}, []float32{10, 20, 30, 40}, "scalar"},
	} {
		b := tp.Const(c.b)
		add, sub, mul := tp.Add(a, b).Value.Data, tp.Sub(a, b).Value.Data, tp.Mul(a, b).Value.Data
		for k := range add {
			if add[k] != c.add[k] || mul[k] != c.mul[k] || sub[k] != 2*a.Value.Data[k]-c.add[k] {
				t.Errorf("%s: add %v sub %v mul %v, want add %v mul %v", c.name, add, sub, mul, c.add, c.mul)
				break
			}
		}
	}
}

// TestScalarParamGrad checks an exact gradient: for out = a ⊙ s with a learned
// scalar s, ∂s = Σ a when the loss is Σ out.
func TestScalarParamGrad(t *testing.T) {
	tp := NewTape(tensor.Serial)
	s := NewParam("s", tensor.FromRows([][]float32{{2}}))
	a := tp.Const(tensor.FromRows([][]float32{{1, 2}, {3, 4}}))
	tp.Backward(tp.Sum(tp.Add(tp.Mul(a, s), s)))
	if g := s.Grad.Data[0]; g != 10+4 {
		t.Errorf("∂s = %v, want 14", g)
	}
}

func TestBroadcastMismatchPanics(t *testing.T) {
	testkit.Panics(t, "Add of 5×3 and 2×3", func() {
		tp := NewTape(tensor.Serial)
		tp.Add(tp.Const(testkit.RandDense(5, 3, 1)), tp.Const(testkit.RandDense(2, 3, 1)))
	})
}
