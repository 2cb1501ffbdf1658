package tensor

import (
	"fmt"
	"math"
	"testing"
)

func TestSpMMMatchesReference(t *testing.T) {
	r := newRand(4)
	for _, rows := range []int{1, 7, 129} {
		for _, inner := range []int{1, 9, 130} {
			for _, n := range []int{1, 3, 8, 17, 29, 65, 100} {
				a := randCSR(r, rows, inner, 0.3, true)
				for _, s := range [][2]float32{{1, 0}, {0.5, 1}, {-2, 0.25}} {
					b := randDense(r, inner, n)
					c := randDense(r, rows, n)
					if s[1] == 0 {
						for i := range c.Data {
							c.Data[i] = float32(math.NaN())
						}
					}
					want, scale := refSpMM(false, s[0], a, b, s[1], c)
					SpMM(Exec{Threads: 2}, s[0], a, b, s[1], c)
					checkClose(t, fmt.Sprintf("SpMM %s × %d cols alpha=%v beta=%v", a.Shape(), n, s[0], s[1]), c.Data, want, scale)

					bt := randDense(r, rows, n)
					ct := randDense(r, inner, n)
					want, scale = refSpMM(true, s[0], a, bt, s[1], ct)
					SpMMT(Exec{Threads: 2}, s[0], a, bt, s[1], ct)
					checkClose(t, fmt.Sprintf("SpMMT %s × %d cols alpha=%v beta=%v", a.Shape(), n, s[0], s[1]), ct.Data, want, scale)
				}
			}
		}
	}
}

func TestSpMMTSymmetric(t *testing.T) {
	r := newRand(5)
	var ts []Triplet
	for i := 0; i < 40; i++ {
		for j := i; j < 40; j++ {
			if r.Float64() < 0.2 {
				v := float32(r.NormFloat64())
				ts = append(ts, Triplet{Row: int32(i), Col: int32(j), Val: v})
				if i != j {
					ts = append(ts, Triplet{Row: int32(j), Col: int32(i), Val: v})
				}
			}
		}
	}
	a := FromTriplets(40, 40, ts).MarkSymmetric()
	if !a.Symmetric() || a.WithValues(a.Val).Symmetric() {
		t.Fatal("MarkSymmetric must mark a itself and not copies with new values")
	}
	b := randDense(r, 40, 19)
	c := NewDense(40, 19)
	want, scale := refSpMM(true, 1, a, b, 0, c)
	SpMMT(Serial, 1, a, b, 0, c)
	checkClose(t, "SpMMT symmetric", c.Data, want, scale)
}

func TestSDDMMMatchesReference(t *testing.T) {
	r := newRand(6)
	for _, rows := range []int{1, 7, 129} {
		for _, d := range []int{1, 3, 8, 17, 40, 65} {
			p := randCSR(r, rows, 33, 0.3, true)
			a := randDense(r, rows, d)
			b := randDense(r, 33, d)
			out := make([]float32, p.NNZ())
			SDDMM(Exec{Threads: 3}, p, a, b, out)
			want := make([]float64, p.NNZ())
			scale := make([]float64, p.NNZ())
			for i := 0; i < rows; i++ {
				for k := p.RowPtr[i]; k < p.RowPtr[i+1]; k++ {
					j := int(p.ColIdx[k])
					for q := 0; q < d; q++ {
						v := float64(a.At(i, q)) * float64(b.At(j, q))
						want[k] += v
						scale[k] += math.Abs(v)
					}
				}
			}
			checkClose(t, fmt.Sprintf("SDDMM %s d=%d", p.Shape(), d), out, want, scale)
		}
	}
}

func TestRowSoftmaxMatchesReference(t *testing.T) {
	r := newRand(7)
	p := randCSR(r, 129, 65, 0.2, true)
	vals := make([]float32, p.NNZ())
	for i := range vals {
		vals[i] = float32(10 * r.NormFloat64())
	}
	out := make([]float32, p.NNZ())
	RowSoftmax(Exec{Threads: 2}, p, vals, out)
	for i := 0; i < p.Rows; i++ {
		lo, hi := p.RowPtr[i], p.RowPtr[i+1]
		mx := math.Inf(-1)
		for _, v := range vals[lo:hi] {
			mx = math.Max(mx, float64(v))
		}
		var s float64
		for _, v := range vals[lo:hi] {
			s += math.Exp(float64(v) - mx)
		}
		for k := lo; k < hi; k++ {
			want := math.Exp(float64(vals[k])-mx) / s
			if math.Abs(float64(out[k])-want) > 1e-6 {
				t.Fatalf("row %d entry %d: %v, want %v", i, k, out[k], want)
			}
		}
	}
	// in place, and empty rows untouched
	cp := append([]float32(nil), vals...)
	RowSoftmax(Serial, p, cp, cp)
	if i := bitsEqual(cp, out); i >= 0 {
		t.Fatalf("in-place RowSoftmax differs at %d", i)
	}
}

func TestSoftmaxRows(t *testing.T) {
	x := FromRows([][]float32{{1, 2, 3}, {1000, 1000, 1000}, {-5, 0, 5}})
	y := NewDense(3, 3)
	SoftmaxRows(Serial, x, y)
	for i := 0; i < 3; i++ {
		var s, mx float64
		mx = math.Inf(-1)
		for _, v := range x.Row(i) {
			mx = math.Max(mx, float64(v))
		}
		for _, v := range x.Row(i) {
			s += math.Exp(float64(v) - mx)
		}
		for j, v := range x.Row(i) {
			want := math.Exp(float64(v)-mx) / s
			if math.Abs(float64(y.At(i, j))-want) > 1e-6 {
				t.Fatalf("y[%d,%d] = %v, want %v", i, j, y.At(i, j), want)
			}
		}
	}
}

func TestSparseShapePanics(t *testing.T) {
	a := FromTriplets(3, 4, []Triplet{{0, 1, 1}})
	for name, f := range map[string]func(){
		"SpMM":       func() { SpMM(Serial, 1, a, NewDense(3, 2), 0, NewDense(3, 2)) },
		"SpMMT":      func() { SpMMT(Serial, 1, a, NewDense(4, 2), 0, NewDense(4, 2)) },
		"SDDMM":      func() { SDDMM(Serial, a, NewDense(3, 2), NewDense(4, 2), make([]float32, 2)) },
		"RowSoftmax": func() { RowSoftmax(Serial, a, make([]float32, 2), make([]float32, 1)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s accepted mismatched shapes", name)
				}
			}()
			f()
		}()
	}
}
