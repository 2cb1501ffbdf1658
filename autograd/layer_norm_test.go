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

func TestLayerNormGrad(t *testing.T) {
	for i, s := range [][2]int{{3, 5}, {4, 7}, {2, 12}} {
		check(t, "LayerNorm", func(tp *Tape, p []*Var) *Var { return tp.LayerNorm(p[0], 1e-3) },
			testkit.RandDense(s[0], s[1], uint64(950+i)))
	}
	// through a non-linear function of the output, so that the projection
	// terms of the backward formula matter
	check(t, "LayerNorm·w", func(tp *Tape, p []*Var) *Var { return tp.Mul(tp.LayerNorm(p[0], 1e-5), p[1]) },
		testkit.RandDense(6, 5, 960), testkit.RandDense(6, 5, 961))
}

// TestLayerNormMatchesFloat64 compares LayerNorm with the float64 formula on
// random rows, including a constant row (which maps to 0 whatever eps is).
func TestLayerNormMatchesFloat64(t *testing.T) {
	x := testkit.RandDense(9, 11, 962)
	for j := 0; j < x.Cols; j++ {
		x.Set(4, j, 3)
	}
	tp := NewTape(tensor.Serial)
	got := tp.LayerNorm(tp.Const(x), 1e-5).Value
	for i := 0; i < x.Rows; i++ {
		var mu, v float64
		for j := 0; j < x.Cols; j++ {
			mu += float64(x.At(i, j))
		}
		mu /= float64(x.Cols)
		for j := 0; j < x.Cols; j++ {
			d := float64(x.At(i, j)) - mu
			v += d * d
		}
		v /= float64(x.Cols)
		for j := 0; j < x.Cols; j++ {
			want := (float64(x.At(i, j)) - mu) / math.Sqrt(v+1e-5)
			if math.Abs(float64(got.At(i, j))-want) > 1e-5 {
				t.Errorf("LayerNorm[%d,%d] = %g, want %g", i, j, got.At(i, j), want)
			}
		}
	}
}

func TestLayerNormThreadsAgree(t *testing.T) {
	x := testkit.RandDense(257, 9, 963)
	serial := NewTape(tensor.Serial)
	par := NewTape(tensor.Exec{Threads: 4})
	a := serial.LayerNorm(serial.Const(x), 1e-5).Value
	b := par.LayerNorm(par.Const(x), 1e-5).Value
	for k := range a.Data {
		if a.Data[k] != b.Data[k] {
			t.Fatalf("element %d: serial %g, 4 threads %g", k, a.Data[k], b.Data[k])
		}
	}
}

// layerNormRowsRef and layerNormBackRowsRef are the one-row loops as they
// were before the kernels (without the conversions of the products). The
// new loops must give their bits on finite values at the default GOAMD64
// level.
func layerNormRowsRef(o *Var, lo, hi int) {
	cols, xd, od, sd := o.Value.Cols, o.in[0].Value.Data, o.Value.Data, o.aux.Data
	n := float64(cols)
	for i := lo; i < hi; i++ {
		row, out := xd[i*cols:(i+1)*cols], od[i*cols:(i+1)*cols]
		var sum float64
		for _, v := range row {
			sum += float64(v)
		}
		mu := sum / n
		var ss float64
		for _, v := range row {
			d := float64(v) - mu
			ss += d * d
		}
		s := 1 / math.Sqrt(ss/n+float64(o.p))
		sd[i] = float32(s)
		for j, v := range row {
			out[j] = float32((float64(v) - mu) * s)
		}
	}
}

func layerNormBackRowsRef(o *Var, lo, hi int) {
	cols, gxd, gyd, yd, sd := o.Value.Cols, o.in[0].Grad.Data, o.Grad.Data, o.Value.Data, o.aux.Data
	n := float64(cols)
	for i := lo; i < hi; i++ {
		gx, gy, y := gxd[i*cols:(i+1)*cols], gyd[i*cols:(i+1)*cols], yd[i*cols:(i+1)*cols]
		var sg, sgy float64
		for j, g := range gy {
			sg += float64(g)
			sgy += float64(g) * float64(y[j])
		}
		mg, mgy, s := sg/n, sgy/n, float64(sd[i])
		for j, g := range gy {
			gx[j] += float32(s * (float64(g) - mg - float64(float64(y[j])*mgy)))
		}
	}
}

// TestLayerNormVectorMatchesRows checks the four-row kernels bit for bit,
// forward and backward, on inputs mixed with ±0, infinities, NaN payloads
// and subnormals, with the rows cut into ranges anywhere (as threads cut
// them, so that rows fall in different lanes and groups), against the
// one-row Go loops (NaN payloads included, except under -race: see
// raceBuild), and those against the loops they replaced (a NaN for a NaN:
// which NaN an addition of two keeps is the compiler's choice of operand
// order, and the conversions added to the products may move it).
func TestLayerNormVectorMatchesRows(t *testing.T) {
	same := func(what string, a, b []float32, anyNaN bool) {
		t.Helper()
		for k := range a {
			if anyNaN && a[k] != a[k] && b[k] != b[k] {
				continue
			}
			if math.Float32bits(a[k]) != math.Float32bits(b[k]) {
				t.Fatalf("%s: element %d: %g (%#x), reference %g (%#x)", what, k, a[k], math.Float32bits(a[k]), b[k], math.Float32bits(b[k]))
			}
		}
	}
	vec := simd.Enabled()
	r := rand.New(rand.NewPCG(73, 74))
	for _, rows := range []int{1, 3, 4, 5, 9, 13} {
		for _, cols := range []int{1, 2, 3, 4, 7, 64, 130} {
			for _, rate := range []int{1 << 30, 40, 3} { // finite, a few specials, many
				x := tensor.NewDense(rows, cols)
				fillSpecialOr(r, x.Data, rate)
				for _, cut := range []int{0, 1, 2, rows / 2, rows - 1} {
					cut = min(max(cut, 0), rows)
					name := fmt.Sprintf("%d×%d, specials 1 in %d, cut at %d", rows, cols, rate, cut)
					tp := NewTape(tensor.Serial)
					o := tp.LayerNorm(tp.Const(x), 1e-5)
					one := tp.LayerNorm(tp.Const(x), 1e-5)
					old := tp.LayerNorm(tp.Const(x), 1e-5)
					for _, v := range []*Var{o, one, old} {
						clear(v.Value.Data)
						clear(v.aux.Data)
					}
					layerNormRowsVec(o, 0, cut, vec)
					layerNormRowsVec(o, cut, rows, vec)
					layerNormRowsVec(one, 0, rows, false)
					layerNormRowsRef(old, 0, rows)
					same(name+" forward", o.Value.Data, one.Value.Data, raceBuild)
					same(name+" 1/σ", o.aux.Data, one.aux.Data, raceBuild)
					if !goFusesFMA { // the old loops fuse there: other bits
						same(name+" forward, old loops", one.Value.Data, old.Value.Data, true)
						same(name+" 1/σ, old loops", one.aux.Data, old.aux.Data, true)
					}

					gy, y, gx := tensor.NewDense(rows, cols), tensor.NewDense(rows, cols), tensor.NewDense(rows, cols)
					fillSpecialOr(r, gy.Data, rate)
					fillSpecialOr(r, y.Data, rate) // specials in x̂ too
					fillSpecialOr(r, gx.Data, rate)
					for _, v := range []*Var{o, one, old} {
						v.Grad = gy
						copy(v.Value.Data, y.Data)
						v.in[0].Grad = gx.Clone()
					}
					layerNormBackRowsVec(o, 0, cut, vec)
					layerNormBackRowsVec(o, cut, rows, vec)
					layerNormBackRowsVec(one, 0, rows, false)
					layerNormBackRowsRef(old, 0, rows)
					same(name+" backward", o.in[0].Grad.Data, one.in[0].Grad.Data, raceBuild)
					if !goFusesFMA {
						same(name+" backward, old loops", one.in[0].Grad.Data, old.in[0].Grad.Data, true)
					}
				}
			}
		}
	}
}

// BenchmarkLayerNorm times a forward and backward pass over a 256-wide
// hidden matrix of lnBenchRows rows (1 MiB, in cache: a Tolokers-sized one
// is bound by memory), one thread; /rows is the one-row loops the kernels
// replaced, for comparison.
func BenchmarkLayerNorm(b *testing.B) {
	const lnBenchRows = 1024
	x := testkit.RandDense(lnBenchRows, 256, 975)
	tp := NewTape(tensor.Serial)
	o := tp.LayerNorm(tp.Const(x), 1e-5)
	o.Grad = testkit.RandDense(lnBenchRows, 256, 976)
	o.in[0].Grad = tensor.NewDense(lnBenchRows, 256)
	run := func(b *testing.B, fwd, back func(*Var, int, int)) {
		b.SetBytes(int64(4 * 5 * len(x.Data))) // x, out; ∂out, out, ∂x
		for b.Loop() {
			fwd(o, 0, x.Rows)
			back(o, 0, x.Rows)
		}
	}
	b.Run("kernels", func(b *testing.B) {
		run(b, func(o *Var, lo, hi int) { layerNormRows(o, lo, hi) }, func(o *Var, lo, hi int) { layerNormBackRows(o, lo, hi) })
	})
	b.Run("rows", func(b *testing.B) { run(b, layerNormRowsRef, layerNormBackRowsRef) })
}
