package autograd

import (
	"math"
	"slices"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestEdgeSoftmaxGrad(t *testing.T) {
	// h = 17 takes the path for more heads than maxStackHeads
	for _, s := range [][3]int{{1, 1, 1}, {5, 6, 1}, {7, 4, 3}, {6, 5, 8}, {4, 5, 17}} {
		pat := testkit.RandCSR(s[0], s[1], 0.5, 22)
		check(t, "EdgeSoftmax", func(tp *Tape, p []*Var) *Var { return tp.EdgeSoftmax(pat, p[0]) },
			testkit.RandDense(pat.NNZ(), s[2], 23))
	}
}

// TestEdgeSoftmaxValue checks that every non-empty row sums to one per head,
// that large scores do not overflow, and that h = 1 agrees with each column of
// a multi-head call.
func TestEdgeSoftmaxValue(t *testing.T) {
	tp := NewTape(tensor.Serial)
	pat := testkit.RandCSR(8, 8, 0.5, 24)
	for _, heads := range []int{2, 17} {
		s := testkit.RandDense(pat.NNZ(), heads, 25)
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
					if math.IsNaN(float64(v)) || !testkit.Near(v, y1.Data[k], 1e-6) {
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

// TestEdgeSoftmaxReference compares the forward pass with a naive float64
// softmax on a graph large enough that rows are exponentiated in several
// batches (expBatch), with rows of every length including empty ones, for
// one, a few and more than maxStackHeads heads, serially and on 3
// goroutines (the same numbers either way).
func TestEdgeSoftmaxReference(t *testing.T) {
	pat := testkit.RandCSR(300, 300, 0.08, 31)
	for _, heads := range []int{1, 8, 17} {
		s := testkit.RandDense(pat.NNZ(), heads, 32)
		for i := range s.Data {
			s.Data[i] *= 10 // shifted scores down to about -20: float32 inputs carry ~1e-6 relative
		}
		got := NewTape(tensor.Serial).EdgeSoftmax(pat, NewTape(tensor.Serial).Const(s)).Value
		par := NewTape(tensor.Exec{Threads: 3})
		if p := par.EdgeSoftmax(pat, par.Const(s)).Value; !slices.Equal(p.Data, got.Data) {
			t.Fatalf("%d heads: 3 goroutines give other numbers than 1", heads)
		}
		for i := 0; i < pat.Rows; i++ {
			a, b := int(pat.RowPtr[i]), int(pat.RowPtr[i+1])
			for c := 0; c < heads; c++ {
				m := math.Inf(-1)
				for k := a; k < b; k++ {
					m = math.Max(m, float64(s.At(k, c)))
				}
				var sum float64
				for k := a; k < b; k++ {
					sum += math.Exp(float64(s.At(k, c)) - m)
				}
				for k := a; k < b; k++ {
					want := math.Exp(float64(s.At(k, c))-m) / sum
					if g := float64(got.At(k, c)); math.Abs(g-want) > 3e-6*want+1e-37 {
						t.Fatalf("%d heads, row %d entry %d head %d: %v, want %v", heads, i, k, c, g, want)
					}
				}
			}
		}
	}
}
