package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// TestSoftmaxRowsMatchesRowByRow compares SoftmaxRows (exponentials a block
// of rows at a time) with softmaxInto row by row, bit for bit: widths 1–9,
// 64, 2048 and 2049 (a row longer than a block), ordinary, huge, infinite,
// NaN and −0 entries, out of place and in place, 1–3 goroutines.
func TestSoftmaxRowsMatchesRowByRow(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 23))
	for _, cols := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 64, 2048, 2049} {
		rows := max(3, 20000/cols)
		x := NewDense(rows, cols)
		for k := range x.Data {
			x.Data[k] = float32(r.NormFloat64() * 5)
		}
		for range 20 {
			k := r.IntN(len(x.Data))
			x.Data[k] = []float32{1e30, -1e30, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), float32(math.Copysign(0, -1)), 88, -88}[r.IntN(8)]
		}
		want := NewDense(rows, cols)
		for i := 0; i < rows; i++ {
			softmaxInto(x.Row(i), want.Row(i))
		}
		for _, threads := range []int{1, 2, 3} {
			for _, inPlace := range []bool{false, true} {
				label := fmt.Sprintf("cols %d, %d threads, in place %v", cols, threads, inPlace)
				y := NewDense(rows, cols)
				if inPlace {
					copy(y.Data, x.Data)
					SoftmaxRows(Exec{Threads: threads}, y, y)
				} else {
					SoftmaxRows(Exec{Threads: threads}, x, y)
				}
				if i := bitsEqual(y.Data, want.Data); i >= 0 {
					t.Fatalf("%s: element %d is %v (%#x), row by row %v (%#x)", label, i, y.Data[i], math.Float32bits(y.Data[i]), want.Data[i], math.Float32bits(want.Data[i]))
				}
			}
		}
	}
}

// TestSoftmaxNarrowRowsMatchesGo: rows of 1–8 columns are shifted by their
// maximum (simd.SoftmaxShiftRows) and divided by their sum
// (simd.SoftmaxNormRows) in kernels; the shifted rows, and the softmax
// after them, have the bits of softmaxInto's loop, on rows drawn from few
// values (ties of +0 and −0, NaNs first or later, rows of NaNs, of −Inf, an
// +Inf), out of place and in place, at 1–3 goroutines.
func TestSoftmaxNarrowRowsMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(44, 21))
	nan, negZero := float32(math.NaN()), float32(math.Copysign(0, -1))
	vals := []float32{0, negZero, 1, -1, nan, float32(math.Inf(1)), float32(math.Inf(-1)), 3}
	for cols := 1; cols <= 8; cols++ {
		rows := 700 + r.IntN(700)
		x := NewDense(rows, cols)
		for k := range x.Data {
			if r.IntN(2) == 0 {
				x.Data[k] = vals[r.IntN(len(vals))]
			} else {
				x.Data[k] = float32(r.NormFloat64())
			}
		}
		for i := 0; i < rows; i += 11 {
			for j := 0; j < cols; j++ {
				x.Data[i*cols+j] = []float32{nan, float32(math.Inf(-1))}[i%2]
			}
		}
		shifted, want := NewDense(rows, cols), NewDense(rows, cols)
		for i := 0; i < rows; i++ {
			xi := x.Row(i)
			m := xi[0]
			for _, v := range xi[1:] {
				if v > m {
					m = v
				}
			}
			for j, v := range xi {
				want.Data[i*cols+j] = v - m
			}
		}
		if simd.Enabled() {
			simd.SoftmaxShiftRows(x.Data, cols, shifted.Data)
			if i := bitsEqual(shifted.Data, want.Data); i >= 0 {
				t.Fatalf("cols %d: shifted element %d is %#x, the loop's %#x", cols, i, math.Float32bits(shifted.Data[i]), math.Float32bits(want.Data[i]))
			}
		}
		for i := 0; i < rows; i++ {
			softmaxInto(x.Row(i), want.Row(i))
		}
		for _, threads := range []int{1, 2, 3} {
			for _, inPlace := range []bool{false, true} {
				y := NewDense(rows, cols)
				if inPlace {
					copy(y.Data, x.Data)
					SoftmaxRows(Exec{Threads: threads}, y, y)
				} else {
					SoftmaxRows(Exec{Threads: threads}, x, y)
				}
				for i := range y.Data {
					g, w := math.Float32bits(y.Data[i]), math.Float32bits(want.Data[i])
					if g == w || raceBuild && y.Data[i] != y.Data[i] && want.Data[i] != want.Data[i] {
						continue // -race compiles softmaxInto's loops to keep either NaN of two
					}
					t.Fatalf("cols %d, %d threads, in place %v: element %d is %#x, row by row %#x", cols, threads, inPlace, i, g, w)
				}
			}
		}
	}
}
