package autograd

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

func TestEdgeSoftmaxGrad(t *testing.T) {
	// h = 17 takes the path for more heads than maxStackHeads
	for _, s := range [][3]int{{1, 1, 1}, {5, 6, 1}, {7, 4, 3}, {6, 5, 8}, {4, 5, 17}} {
		pat := randCSR(s[0], s[1], 0.5, 22)
		check(t, "EdgeSoftmax", func(tp *Tape, p []*Var) *Var { return tp.EdgeSoftmax(pat, p[0]) },
			randDense(pat.NNZ(), s[2], 23))
	}
}

// TestEdgeSoftmaxValue checks that every non-empty row sums to one per head,
// that large scores do not overflow, and that h = 1 agrees with each column of
// a multi-head call.
func TestEdgeSoftmaxValue(t *testing.T) {
	tp := NewTape(tensor.Serial)
	pat := randCSR(8, 8, 0.5, 24)
	for _, heads := range []int{2, 17} {
		s := randDense(pat.NNZ(), heads, 25)
		for i := range s.Data {
			s.Data[i] *= 200 // exp would overflow without the max shift
		}
		y := tp.EdgeSoftmax(pat, tp.Const(s)).Value
		for c := 0; c < heads; c++ {
			col := tensor.NewDense(pat.NNZ(), 1)
			for k := range col.Data {
				col.Data[k] = s.At(k, c)
			}
			y1 := tp.EdgeSoftmax(pat, tp.Const(col)).Value
			for i := 0; i < pat.Rows; i++ {
				a, b := pat.RowPtr[i], pat.RowPtr[i+1]
				var sum float64
				for k := a; k < b; k++ {
					v := y.At(int(k), c)
					if math.IsNaN(float64(v)) || !near(v, y1.Data[k], 1e-6) {
						t.Fatalf("row %d head %d: %v vs single-head %v", i, c, v, y1.Data[k])
					}
					sum += float64(v)
				}
				if a < b && math.Abs(sum-1) > 1e-5 {
					t.Errorf("row %d head %d sums to %v", i, c, sum)
				}
			}
		}
	}
}
