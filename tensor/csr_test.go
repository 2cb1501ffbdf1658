package tensor

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestNewCSRErrors(t *testing.T) {
	cases := []struct {
		name       string
		rows, cols int
		rp, ci     []int32
		v          []float32
		want       string
	}{
		{"negative", -1, 2, []int32{0}, nil, nil, "negative shape"},
		{"rowptr length", 2, 2, []int32{0, 1}, []int32{0}, []float32{1}, "RowPtr has 2 entries"},
		{"rowptr start", 1, 2, []int32{1, 1}, nil, nil, "RowPtr[0] = 1"},
		{"nnz mismatch", 1, 2, []int32{0, 2}, []int32{0}, []float32{1}, "RowPtr says 2"},
		{"decreasing", 2, 2, []int32{0, 2, 1}, []int32{0}, []float32{1}, "decreases at row 1"},
		{"decreasing row", 3, 2, []int32{0, 2, 1, 2}, []int32{0, 1}, []float32{1, 2}, "decreases at row 1"},
		{"column range", 1, 2, []int32{0, 1}, []int32{2}, []float32{1}, "outside [0,2)"},
		{"unsorted", 1, 3, []int32{0, 2}, []int32{2, 1}, []float32{1, 2}, "not strictly increasing"},
		{"duplicate", 1, 3, []int32{0, 2}, []int32{1, 1}, []float32{1, 2}, "not strictly increasing"},
	}
	for _, c := range cases {
		_, err := NewCSR(c.rows, c.cols, c.rp, c.ci, c.v)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	a, err := NewCSR(2, 3, []int32{0, 2, 2}, []int32{0, 2}, []float32{1, 2})
	if err != nil || a.NNZ() != 2 || a.ToDense().At(0, 2) != 2 {
		t.Fatalf("valid CSR rejected or wrong: %v", err)
	}
}

func TestFromTripletsMergesDuplicates(t *testing.T) {
	a := FromTriplets(3, 4, []Triplet{{2, 3, 1}, {0, 1, 2}, {2, 0, 5}, {0, 1, 3}, {2, 3, -4}, {0, 0, 1}})
	if got, want := a.RowPtr, []int32{0, 2, 2, 4}; !slices.Equal(got, want) {
		t.Fatalf("RowPtr %v, want %v", got, want)
	}
	if got, want := a.ColIdx, []int32{0, 1, 0, 3}; !slices.Equal(got, want) {
		t.Fatalf("ColIdx %v, want %v", got, want)
	}
	if got, want := a.Val, []float32{1, 5, 5, -3}; bitsEqual(got, want) >= 0 {
		t.Fatalf("Val %v, want %v", got, want)
	}
	if _, err := NewCSR(a.Rows, a.Cols, a.RowPtr, a.ColIdx, a.Val); err != nil {
		t.Fatalf("FromTriplets result invalid: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("FromTriplets accepted an entry out of range")
		}
	}()
	FromTriplets(2, 2, []Triplet{{2, 0, 1}})
}

func TestTransposeAndWithValues(t *testing.T) {
	r := newRand(8)
	a := randCSR(r, 13, 9, 0.3, true)
	at := a.Transpose()
	ad, atd := a.ToDense(), at.ToDense()
	if at.Rows != 9 || at.Cols != 13 {
		t.Fatalf("Transpose shape %s", at.Shape())
	}
	for i := 0; i < 13; i++ {
		for j := 0; j < 9; j++ {
			if ad.At(i, j) != atd.At(j, i) {
				t.Fatalf("Transpose (%d,%d): %v vs %v", i, j, atd.At(j, i), ad.At(i, j))
			}
		}
	}
	if _, err := NewCSR(at.Rows, at.Cols, at.RowPtr, at.ColIdx, at.Val); err != nil {
		t.Fatalf("Transpose result invalid: %v", err)
	}

	v2 := make([]float32, a.NNZ())
	for i := range v2 {
		v2[i] = float32(i + 1)
	}
	b := a.WithValues(v2)
	if &b.RowPtr[0] != &a.RowPtr[0] || &b.ColIdx[0] != &a.ColIdx[0] || &b.Val[0] != &v2[0] {
		t.Fatal("WithValues does not share the pattern or use the given values")
	}
	rp1, _, pm1 := a.transposed()
	rp2, _, pm2 := b.transposed()
	if &rp1[0] != &rp2[0] || &pm1[0] != &pm2[0] {
		t.Fatal("WithValues does not share the cached transpose")
	}
	bt := b.Transpose().ToDense()
	bd := b.ToDense()
	for i := 0; i < 13; i++ {
		for j := 0; j < 9; j++ {
			if bd.At(i, j) != bt.At(j, i) {
				t.Fatalf("Transpose of WithValues (%d,%d) wrong", i, j)
			}
		}
	}
	if a.Val[0] == v2[0] && a.Val[0] != 1 {
		t.Fatal("WithValues changed the original values")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("WithValues accepted a wrong length")
		}
	}()
	a.WithValues(v2[1:])
}

func TestDenseCSRRoundTrip(t *testing.T) {
	d := FromRows([][]float32{{0, 1, 0}, {0, 0, 0}, {2, 0, 3}})
	a := DenseToCSR(d)
	if a.NNZ() != 3 || a.Density() != 3.0/9 {
		t.Fatalf("DenseToCSR nnz %d density %v", a.NNZ(), a.Density())
	}
	if i := bitsEqual(a.ToDense().Data, d.Data); i >= 0 {
		t.Fatalf("round trip differs at %d", i)
	}
}

func TestSparseProductsRejectBadIndices(t *testing.T) {
	bad := &CSR{Rows: 2, Cols: 3, RowPtr: []int32{0, 1, 2}, ColIdx: []int32{1, 3}, Val: []float32{1, 1}}
	for name, f := range map[string]func(){
		"SpMM":  func() { SpMM(Serial, 1, bad, NewDense(3, 4), 0, NewDense(2, 4)) },
		"SpMMT": func() { SpMMT(Serial, 1, bad, NewDense(2, 4), 0, NewDense(3, 4)) },
		"SDDMM": func() { SDDMM(Serial, bad, NewDense(2, 4), NewDense(3, 4), make([]float32, 2)) },
	} {
		func() {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(fmt.Sprint(r), "outside [0,3)") {
					t.Errorf("%s: recovered %v, want a column-range panic", name, r)
				}
			}()
			f()
		}()
	}
	good := &CSR{Rows: 2, Cols: 3, RowPtr: []int32{0, 1, 2}, ColIdx: []int32{1, 2}, Val: []float32{1, 2}}
	c := NewDense(2, 1)
	SpMM(Serial, 1, good, FromRows([][]float32{{1}, {10}, {100}}), 0, c)
	if c.Data[0] != 10 || c.Data[1] != 200 {
		t.Fatalf("hand-built CSR product %v, want [10 200]", c.Data)
	}
}

func TestWithValuesDropsSymmetricMark(t *testing.T) {
	a := FromTriplets(2, 2, []Triplet{{0, 1, 1}, {1, 0, 1}}).MarkSymmetric()
	b := a.WithValues([]float32{2, 5}) // no longer symmetric
	if !a.Symmetric() || b.Symmetric() {
		t.Fatalf("marks: a %v, b %v", a.Symmetric(), b.Symmetric())
	}
	x := FromRows([][]float32{{1}, {10}})
	got := NewDense(2, 1)
	SpMMT(Serial, 1, b, x, 0, got) // bᵀ·x = [[0,5],[2,0]]·[1,10] = [50, 2]
	if got.Data[0] != 50 || got.Data[1] != 2 {
		t.Errorf("bᵀx = %v, want [50 2]", got.Data)
	}
}
