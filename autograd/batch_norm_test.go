package autograd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestBatchNormGrad(t *testing.T) {
	for i, s := range [][2]int{{5, 3}, {7, 4}, {12, 2}} {
		check(t, "BatchNorm", func(tp *Tape, p []*Var) *Var { return tp.BatchNorm(p[0], 1e-3) },
			testkit.RandDense(s[0], s[1], uint64(900+i)))
	}
}

func TestBatchNormValue(t *testing.T) {
	tp := NewTape(tensor.Serial)
	x := tp.Const(tensor.FromRows([][]float32{{1, 2, 7}, {3, 2, 7}, {5, 8, 7}}))
	got := tp.BatchNorm(x, 0.5).Value
	// column 0: mean 3, variance 8/3; column 1: mean 4, variance 8; column 2
	// is constant, so it maps to 0 whatever eps is.
	s0, s1 := 1/math.Sqrt(8.0/3+0.5), 1/math.Sqrt(8+0.5)
	want := []float64{-2 * s0, -2 * s1, 0, 0, -2 * s1, 0, 2 * s0, 4 * s1, 0}
	for k, w := range want {
		if math.Abs(float64(got.Data[k])-w) > 1e-6 {
			t.Errorf("BatchNorm[%d] = %g, want %g", k, got.Data[k], w)
		}
	}
}

func TestBatchNormThreadsAgree(t *testing.T) {
	x := testkit.RandDense(257, 9, 31)
	serial := NewTape(tensor.Serial)
	par := NewTape(tensor.Exec{Threads: 4})
	a := serial.BatchNorm(serial.Const(x), 1e-3).Value
	b := par.BatchNorm(par.Const(x), 1e-3).Value
	for k := range a.Data {
		if a.Data[k] != b.Data[k] {
			t.Fatalf("element %d: serial %g, 4 threads %g", k, a.Data[k], b.Data[k])
		}
	}
}

// batchNormColsRef and batchNormBackColsRef are the column-at-a-time loops
// batchNormCols and batchNormBackCols replaced: each column walked down its
// rows, every cols-th value. The blocked loops must give their bits.
func batchNormColsRef(o *Var, lo, hi int) {
	cols, xd, od, sd := o.Value.Cols, o.in[0].Value.Data, o.Value.Data, o.aux.Data
	n := float64(o.Value.Rows)
	for j := lo; j < hi; j++ {
		var sum float64
		for p := j; p < len(xd); p += cols {
			sum += float64(xd[p])
		}
		mu := sum / n
		var ss float64
		for p := j; p < len(xd); p += cols {
			d := float64(xd[p]) - mu
			ss += d * d
		}
		s := 1 / math.Sqrt(ss/n+float64(o.p))
		sd[j] = float32(s)
		for p := j; p < len(xd); p += cols {
			od[p] = float32((float64(xd[p]) - mu) * s)
		}
	}
}

func batchNormBackColsRef(o *Var, lo, hi int) {
	cols, gx, gy, y, sd := o.Value.Cols, o.in[0].Grad.Data, o.Grad.Data, o.Value.Data, o.aux.Data
	n := float64(o.Value.Rows)
	for j := lo; j < hi; j++ {
		var sg, sgy float64
		for p := j; p < len(gy); p += cols {
			sg += float64(gy[p])
			sgy += float64(gy[p]) * float64(y[p])
		}
		mg, mgy, s := sg/n, sgy/n, float64(sd[j])
		for p := j; p < len(gy); p += cols {
			gx[p] += float32(s * (float64(gy[p]) - mg - float64(y[p])*mgy))
		}
	}
}

// TestBatchNormMatchesColumnLoops checks the blocked row walk against the
// column loops bit for bit, forward and backward, on shapes around the
// block width and with the columns cut into ranges anywhere (as threads cut
// them).
func TestBatchNormMatchesColumnLoops(t *testing.T) {
	same := func(what string, a, b []float32) {
		t.Helper()
		for k := range a {
			if math.Float32bits(a[k]) != math.Float32bits(b[k]) {
				t.Fatalf("%s: element %d: blocked %g, column loops %g", what, k, a[k], b[k])
			}
		}
	}
	seed := uint64(70)
	for _, rows := range []int{1, 3, 130} {
		for _, cols := range []int{1, 9, 63, 64, 65, 130, 200} {
			seed++
			x := testkit.RandDense(rows, cols, seed)
			for k := range x.Data {
				x.Data[k] = 3*x.Data[k] + 1 // a mean and a scale away from 0 and 1
			}
			for _, cut := range []int{0, 1, cols / 2, 64, cols - 1} {
				cut = min(max(cut, 0), cols)
				name := fmt.Sprintf("%d×%d cut at %d", rows, cols, cut)
				tp := NewTape(tensor.Serial)
				o := tp.BatchNorm(tp.Const(x), 1e-5)
				ref := tp.BatchNorm(tp.Const(x), 1e-5)
				clear(o.Value.Data)
				clear(o.aux.Data)
				batchNormCols(o, 0, cut)
				batchNormCols(o, cut, cols)
				batchNormColsRef(ref, 0, cols)
				same(name+" forward", o.Value.Data, ref.Value.Data)
				same(name+" 1/σ", o.aux.Data, ref.aux.Data)

				o.Grad = testkit.RandDense(rows, cols, seed+1000)
				ref.Grad = o.Grad
				o.in[0].Grad = testkit.RandDense(rows, cols, seed+2000)
				ref.in[0].Grad = o.in[0].Grad.Clone()
				batchNormBackCols(o, 0, cut)
				batchNormBackCols(o, cut, cols)
				batchNormBackColsRef(ref, 0, cols)
				same(name+" backward", o.in[0].Grad.Data, ref.in[0].Grad.Data)
			}
		}
	}
}

// TestBatchNormVectorMatchesGoLoops checks the vector kernels' passes
// against the Go loops bit for bit, forward and backward, on inputs mixed
// with ±0, infinities, NaN payloads and subnormals, on shapes around the 8
// columns of a kernel group, the 64 of a block and the 64 rows of a chunk,
// with the columns cut into ranges anywhere (as threads cut them). Under
// -race a NaN matches any NaN (see raceBuild).
func TestBatchNormVectorMatchesGoLoops(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels in this build")
	}
	same := func(what string, a, b []float32) {
		t.Helper()
		for k := range a {
			if raceBuild && a[k] != a[k] && b[k] != b[k] {
				continue // see raceBuild
			}
			if math.Float32bits(a[k]) != math.Float32bits(b[k]) {
				t.Fatalf("%s: element %d: vector %g (%#x), Go %g (%#x)", what, k, a[k], math.Float32bits(a[k]), b[k], math.Float32bits(b[k]))
			}
		}
	}
	r := rand.New(rand.NewPCG(71, 72))
	for _, rows := range []int{1, 7, 64, 65, 200} {
		for _, cols := range []int{3, 8, 9, 16, 63, 64, 72, 130} {
			for _, rate := range []int{1 << 30, 50, 3} { // finite, a few specials, many
				x := tensor.NewDense(rows, cols)
				fillSpecialOr(r, x.Data, rate)
				for _, cut := range []int{0, 5, cols / 2, cols - 1} {
					cut = min(max(cut, 0), cols)
					name := fmt.Sprintf("%d×%d, specials 1 in %d, cut at %d", rows, cols, rate, cut)
					tp := NewTape(tensor.Serial)
					vo := tp.BatchNorm(tp.Const(x), 1e-5)
					gov := tp.BatchNorm(tp.Const(x), 1e-5)
					clear(vo.Value.Data)
					clear(gov.Value.Data)
					batchNormColsVec(vo, 0, cut, true)
					batchNormColsVec(vo, cut, cols, true)
					batchNormColsVec(gov, 0, cols, false)
					same(name+" forward", vo.Value.Data, gov.Value.Data)
					same(name+" 1/σ", vo.aux.Data, gov.aux.Data)

					vo.Grad = tensor.NewDense(rows, cols)
					fillSpecialOr(r, vo.Grad.Data, rate)
					gov.Grad = vo.Grad
					// A layer's output as y, so that the backward pass sees the
					// specials in y as well as in the gradient.
					fillSpecialOr(r, vo.Value.Data, rate)
					copy(gov.Value.Data, vo.Value.Data)
					vo.in[0].Grad = tensor.NewDense(rows, cols)
					fillSpecialOr(r, vo.in[0].Grad.Data, rate)
					gov.in[0].Grad = vo.in[0].Grad.Clone()
					batchNormBackColsVec(vo, 0, cut, true)
					batchNormBackColsVec(vo, cut, cols, true)
					batchNormBackColsVec(gov, 0, cols, false)
					same(name+" backward", vo.in[0].Grad.Data, gov.in[0].Grad.Data)
				}
			}
		}
	}
}
