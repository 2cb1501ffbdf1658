package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
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
