package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestColumnIndex(t *testing.T) {
	tp := NewTape(tensor.Serial)
	p := tensor.FromTriplets(3, 4, []tensor.Triplet{
		{Row: 0, Col: 1, Val: 1}, {Row: 0, Col: 3, Val: 1}, {Row: 2, Col: 1, Val: 1}, {Row: 2, Col: 2, Val: 1},
	})
	ci := tp.columns(p)
	wantPtr, wantPerm, wantRow := []int32{0, 0, 2, 3, 4}, []int32{0, 2, 3, 1}, []int32{0, 2, 2, 0}
	for k := range wantPtr {
		if ci.ptr[k] != wantPtr[k] {
			t.Fatalf("ptr %v, want %v", ci.ptr, wantPtr)
		}
	}
	for k := range wantPerm {
		if ci.perm[k] != wantPerm[k] || ci.row[k] != wantRow[k] {
			t.Fatalf("perm %v row %v, want %v %v", ci.perm, ci.row, wantPerm, wantRow)
		}
	}
	if tp.columns(p.WithValues([]float32{5, 6, 7, 8})) != ci {
		t.Error("a pattern with new values missed the cache")
	}
	if tp.columns(tensor.FromTriplets(3, 4, nil)) == ci {
		t.Error("a different pattern hit the cache")
	}
	for i := 0; i < 2*maxCachedPatterns; i++ {
		tp.columns(tensor.FromTriplets(2, 2, []tensor.Triplet{{Row: 1, Col: 1, Val: 1}}))
	}
	if len(tp.cols) > maxCachedPatterns {
		t.Errorf("cache holds %d patterns, bound %d", len(tp.cols), maxCachedPatterns)
	}
}

// TestSpMMTCols compares the transposed product with a dense computation.
func TestSpMMTCols(t *testing.T) {
	tp := NewTape(tensor.Serial)
	p := testkit.RandCSR(6, 4, 0.5, 3)
	b := testkit.RandDense(6, 3, 4)
	c := testkit.RandDense(4, 3, 5)
	want := c.Clone()
	pd := p.ToDense()
	for j := 0; j < 4; j++ {
		for x := 0; x < 3; x++ {
			var s float32
			for i := 0; i < 6; i++ {
				s += pd.At(i, j) * b.At(i, x)
			}
			want.Data[j*3+x] += s
		}
	}
	tp.spmmTCols(tp.columns(p), p.Val, b, c)
	for k := range c.Data {
		if !testkit.Near(c.Data[k], want.Data[k], 1e-5) {
			t.Fatalf("element %d: %v, want %v", k, c.Data[k], want.Data[k])
		}
	}
}
