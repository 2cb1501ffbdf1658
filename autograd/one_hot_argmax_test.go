package autograd

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestOneHotArgmax(t *testing.T) {
	tp := NewTape(tensor.Serial)
	nan := float32(math.NaN())
	x := NewParam("x", tensor.FromRows([][]float32{{1, 3, 2}, {5, 5, 1}, {-1, -1, -1}, {nan, -2, 7}, {nan, nan, nan}}))
	y := tp.OneHotArgmax(x)
	want := []float32{0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0}
	for k, w := range want {
		if y.Value.Data[k] != w {
			t.Fatalf("OneHotArgmax = %v, want %v", y.Value.Data, want)
		}
	}
	if y.RequiresGrad() {
		t.Error("OneHotArgmax must be a constant")
	}
}

// TestOneHotArgmaxOnRecycledBuffer: the output buffer comes from the tape
// unzeroed and each chunk clears its own rows, so a buffer recycled from an
// earlier step (holding its 1s, or anything) gives the rows of a fresh one,
// at 1 to 3 threads.
func TestOneHotArgmaxOnRecycledBuffer(t *testing.T) {
	for threads := 1; threads <= 3; threads++ {
		tp := NewTape(tensor.Exec{Threads: threads})
		first := tp.OneHotArgmax(tp.Const(testkit.RandDense(700, 5, 1)))
		for i := range first.Value.Data {
			first.Value.Data[i] = float32(i) // garbage for the next step
		}
		tp.Reset()
		x := testkit.RandDense(700, 5, 2)
		got := tp.OneHotArgmax(tp.Const(x)).Value.Data
		want := NewTape(tensor.Serial).OneHotArgmax(NewParam("x", x)).Value.Data
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("threads=%d: element %d is %v on a recycled buffer, %v on a fresh one", threads, i, got[i], want[i])
			}
		}
	}
}

func TestOneHotArgmaxIndex(t *testing.T) {
	tp := NewTape(tensor.Exec{Threads: 2})
	nan := float32(math.NaN())
	x := tp.Const(tensor.FromRows([][]float32{{1, 3, 2}, {5, 5, 1}, {-1, -1, -1}, {nan, -2, 7}, {nan, nan, nan}}))
	idx := []int32{9, 9, 9, 9, 9}
	y := tp.OneHotArgmaxIndex(x, idx)
	if want := []int32{1, 0, 0, 2, -1}; !slices.Equal(idx, want) {
		t.Fatalf("indices %v, want %v", idx, want)
	}
	if want := tp.OneHotArgmax(x).Value.Data; !slices.Equal(y.Value.Data, want) {
		t.Fatalf("one-hot %v, OneHotArgmax gives %v", y.Value.Data, want)
	}
	testkit.Panics(t, "OneHotArgmaxIndex with too few indices", func() { tp.OneHotArgmaxIndex(x, idx[:4]) })
}

// TestOneHotArgmaxVectorMatchesGo: the vector path of OneHotArgmaxIndex
// (rows of at most eight columns) writes the Go loop's one-hot bits and
// indices, on rows with NaNs (all-NaN rows too), ties of +0 and −0,
// infinities and repeated values, into recycled buffers holding NaNs, with
// and without indices, at 1 to 3 threads; wider rows take the Go loop.
func TestOneHotArgmaxVectorMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(44, 3))
	nan, negZero := float32(math.NaN()), float32(math.Copysign(0, -1))
	vals := []float32{0, negZero, 1, -1, nan, float32(math.Inf(1)), float32(math.Inf(-1)), math.Float32frombits(1)}
	for cols := 1; cols <= 10; cols++ {
		for threads := 1; threads <= 3; threads++ {
			rows := 1 + r.IntN(1200)
			x := tensor.NewDense(rows, cols)
			for i := range x.Data {
				if r.IntN(3) == 0 {
					x.Data[i] = vals[r.IntN(len(vals))]
				} else {
					x.Data[i] = float32(r.NormFloat64())
				}
			}
			for i := 0; i < rows; i += 7 {
				for j := 0; j < cols; j++ {
					x.Data[i*cols+j] = nan
				}
			}
			want, wantIdx := make([]float32, rows*cols), make([]int32, rows)
			oneHotArgmaxGo(x.Data, want, cols, wantIdx, 0, rows)
			tp := NewTape(tensor.Exec{Threads: threads})
			for _, withIdx := range []bool{true, false} {
				stale := tp.Alloc(rows, cols)
				for i := range stale.Data {
					stale.Data[i] = nan
				}
				tp.Reset()
				var idx []int32
				if withIdx {
					idx = make([]int32, rows)
				}
				got := tp.OneHotArgmaxIndex(tp.Const(x), idx).Value.Data
				for i := range want {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
						t.Fatalf("cols=%d threads=%d: element %d is %v, want %v", cols, threads, i, got[i], want[i])
					}
				}
				if withIdx && !slices.Equal(idx, wantIdx) {
					t.Fatalf("cols=%d threads=%d: indices differ from the Go loop's", cols, threads)
				}
				tp.Reset()
			}
		}
	}
}
