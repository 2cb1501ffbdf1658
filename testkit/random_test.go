package testkit

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

func TestRandDense(t *testing.T) {
	a, b := RandDense(3, 4, 7), RandDense(3, 4, 7)
	if a.Rows != 3 || a.Cols != 4 || !EqualDense(a, b) {
		t.Fatalf("RandDense(3, 4, 7) is %v then %v", a, b)
	}
	if EqualDense(a, RandDense(3, 4, 8)) {
		t.Error("seeds 7 and 8 draw the same matrix")
	}
	for _, v := range a.Data {
		if v < -1 || v >= 1 {
			t.Fatalf("value %v outside [-1, 1)", v)
		}
	}
}

func TestRandCSR(t *testing.T) {
	a := RandCSR(20, 30, 0.3, 1)
	if a.Rows != 20 || a.Cols != 30 || a.RowPtr[1] != 0 {
		t.Fatalf("%d×%d, row 0 holds %d entries; want 20×30 with row 0 empty", a.Rows, a.Cols, a.RowPtr[1])
	}
	if d := a.Density(); d < 0.2 || d > 0.4 {
		t.Errorf("density %.3f, want about 0.3", d)
	}
	if !EqualDense(a.ToDense(), RandCSR(20, 30, 0.3, 1).ToDense()) {
		t.Error("the same seed draws another matrix")
	}
	if full := RandCSR(2, 2, 1, 1); full.NNZ() != 4 {
		t.Errorf("a 2×2 pattern at density 1 holds %d entries, want 4 (no empty row below 3 rows)", full.NNZ())
	}
}

func TestBlobs(t *testing.T) {
	x, y := Blobs(10, 3, 4, 5, 1)
	if x.Rows != 10 || x.Cols != 3 || len(y) != 10 || y[5] != 1 || y[9] != 1 {
		t.Fatalf("shape %d×%d, labels %v", x.Rows, x.Cols, y)
	}
	if again, _ := Blobs(10, 3, 4, 5, 1); !EqualDense(x, again) {
		t.Error("the same seed draws other points")
	}
}

func TestCompare(t *testing.T) {
	if !Near(float32(1), 1.25, 0.25) || Near(1.0, 1.5, 0.25) || !Near(-2.0, -2.0, 0) {
		t.Error("Near")
	}
	a := tensor.FromRows([][]float32{{1, 2}})
	if !EqualDense(a, a.Clone()) || EqualDense(a, tensor.FromRows([][]float32{{1}, {2}})) ||
		EqualDense(a, tensor.FromRows([][]float32{{1, 3}})) {
		t.Error("EqualDense")
	}
}
