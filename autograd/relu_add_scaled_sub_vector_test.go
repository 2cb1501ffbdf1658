package autograd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// TestReLUAddScaledSubVectorMatchesGo: the vector kernels behind
// ReLUAddScaledSub give the bits of the Go loops, forward and backward, with
// and without the mask, for every subset of inputs needing a gradient, on
// rows whose length leaves every tail, with zeros of both signs, subnormals,
// infinities and NaNs among the values.
func TestReLUAddScaledSubVectorMatchesGo(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels here: the Go loops are the path")
	}
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	specials := []float32{0, float32(math.Copysign(0, -1)), 1e-40, -1e-40, inf, -inf, nan,
		math.Float32frombits(0xffc00001), 3e38, -3e38}
	r := rand.New(rand.NewPCG(37, 1))
	fill := func(d *tensor.Dense) {
		for i := range d.Data {
			if r.IntN(8) == 0 {
				d.Data[i] = specials[r.IntN(len(specials))]
			} else {
				d.Data[i] = 2*r.Float32() - 1
			}
		}
	}
	for _, cols := range []int{1, 5, 8, 13, 16, 64} {
		for _, masked := range []bool{false, true} {
			for which := range 8 {
				t.Run(fmt.Sprintf("cols=%d/mask=%v/grads=%03b", cols, masked, which), func(t *testing.T) {
					rows := 7
					mk := func() *tensor.Dense { d := tensor.NewDense(rows, cols); fill(d); return d }
					x, a, b, gy, gx, ga, gb := mk(), mk(), mk(), mk(), mk(), mk(), mk()
					var m *tensor.Dense
					if masked {
						m = mk()
						m.Cols = 1
						m.Data = m.Data[:rows]
						m.Data[0], m.Data[1] = 0, 1
					}
					c := float32(-1.7)
					build := func() *Var {
						vx, va, vb := &Var{Value: x.Clone(), Grad: gx.Clone()}, &Var{Value: a.Clone(), Grad: ga.Clone()}, &Var{Value: b.Clone(), Grad: gb.Clone()}
						vx.requiresGrad, va.requiresGrad, vb.requiresGrad = which&1 != 0, which&2 != 0, which&4 != 0
						return &Var{Value: tensor.NewDense(rows, cols), Grad: gy.Clone(), xs: []*Var{vx}, in: [2]*Var{va, vb}, aux: m, p: c}
					}
					want, got := build(), build()
					reluAddScaledSubForwardGo(want, 0, rows)
					reluAddScaledSubForward(got, 0, 3) // split at a row, as a parallel loop may
					reluAddScaledSubForward(got, 3, rows)
					same(t, "forward", got.Value.Data, want.Value.Data)
					// the backward reads the output: give both the same one
					copy(got.Value.Data, want.Value.Data)
					reluAddScaledSubBackwardGo(want, 0, rows)
					reluAddScaledSubBackward(got, 0, rows)
					for k, name := range []string{"x", "a", "b"} {
						gv, wv := got.xs[0], want.xs[0]
						if k > 0 {
							gv, wv = got.in[k-1], want.in[k-1]
						}
						same(t, "∂"+name, gv.Grad.Data, wv.Grad.Data)
					}
				})
			}
		}
	}
}

// same fails unless got and want have the same bits, except that under
// -race two NaNs match whatever their payloads (see raceBuild).
func same(t *testing.T, what string, got, want []float32) {
	t.Helper()
	for i := range want {
		if raceBuild && isNaN32(got[i]) && isNaN32(want[i]) {
			continue
		}
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s[%d] = %v (%#x), Go loop %v (%#x)", what, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
}

// TestReLUVectorMatchesGo: ReLU's vector kernels give the bits of its Go
// loops on every tail length and on zeros of both signs, subnormals,
// infinities and NaNs.
func TestReLUVectorMatchesGo(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels here: the Go loops are the path")
	}
	vals := []float32{0, float32(math.Copysign(0, -1)), 1e-40, -1e-40, float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.Float32frombits(0xffc00001), math.Float32frombits(0x7fc00005), 1.5, -2.25}
	r := rand.New(rand.NewPCG(3, 7))
	for n := 0; n <= 40; n++ {
		x, gy, gx := make([]float32, n), make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], gy[i], gx[i] = vals[r.IntN(len(vals))], vals[r.IntN(len(vals))], vals[r.IntN(len(vals))]
		}
		want, got := make([]float32, n), make([]float32, n)
		reluForwardGo(want, x)
		reluForward(0, got, x)
		same(t, fmt.Sprintf("ReLU n=%d", n), got, want)
		wantG, gotG := append([]float32(nil), gx...), append([]float32(nil), gx...)
		reluBackwardGo(wantG, gy, x)
		reluBackward(0, gotG, gy, x, nil)
		same(t, fmt.Sprintf("ReLU backward n=%d", n), gotG, wantG)
	}
}

// TestLeakyReLUVectorMatchesGo: LeakyReLU's vector kernels give the bits of
// its Go loops, as TestReLUVectorMatchesGo for ReLU.
func TestLeakyReLUVectorMatchesGo(t *testing.T) {
	if !vectorLeakyReLU {
		t.Skip("no vector kernels in this build: the Go loops are the path")
	}
	vals := []float32{0, float32(math.Copysign(0, -1)), 1e-40, -1e-40, float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.Float32frombits(0xffc00001), math.Float32frombits(0x7fc00005), 1.5, -2.25, 3e38, -3e38}
	r := rand.New(rand.NewPCG(5, 9))
	for _, slope := range []float32{0.2, -1.5, 0} {
		for n := 0; n <= 40; n++ {
			x, gy, gx := make([]float32, n), make([]float32, n), make([]float32, n)
			for i := range x {
				x[i], gy[i], gx[i] = vals[r.IntN(len(vals))], vals[r.IntN(len(vals))], vals[r.IntN(len(vals))]
			}
			want, got := make([]float32, n), make([]float32, n)
			leakyReLUForwardGo(slope, want, x)
			leakyReLUForward(slope, got, x)
			same(t, fmt.Sprintf("LeakyReLU slope %g n=%d", slope, n), got, want)
			wantG, gotG := append([]float32(nil), gx...), append([]float32(nil), gx...)
			leakyReLUBackwardGo(slope, wantG, gy, x)
			leakyReLUBackward(slope, gotG, gy, x, nil)
			same(t, fmt.Sprintf("LeakyReLU backward slope %g n=%d", slope, n), gotG, wantG)
		}
	}
}

// TestAddScaledVectorMatchesGo: AddScaled's vector kernels (simd.AddScaled
// and, for its backward, simd.AXPY) give the bits of its Go loops.
func TestAddScaledVectorMatchesGo(t *testing.T) {
	if !simd.Enabled() || goFusesFMA {
		t.Skip("no vector kernels in this build: the Go loops are the path")
	}
	vals := []float32{0, float32(math.Copysign(0, -1)), 1e-40, -1e-40, float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.Float32frombits(0xffc00001), math.Float32frombits(0x7fc00005), 1.5, -2.25, 3e38, -3e38, 0.1}
	r := rand.New(rand.NewPCG(11, 13))
	for _, cs := range [][2]float32{{0.9, 0.1}, {-1.5, 3e-20}, {0, 1}} {
		for n := 0; n <= 40; n++ {
			a, b, gy, gx := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
			for i := range a {
				a[i], b[i], gy[i], gx[i] = vals[r.IntN(len(vals))], vals[r.IntN(len(vals))], vals[r.IntN(len(vals))], vals[r.IntN(len(vals))]
			}
			mk := func() *Var {
				return &Var{Value: &tensor.Dense{Rows: 1, Cols: n, Data: make([]float32, n)},
					in: [2]*Var{{Value: &tensor.Dense{Rows: 1, Cols: n, Data: a}}, {Value: &tensor.Dense{Rows: 1, Cols: n, Data: b}}},
					p:  cs[0], p2: cs[1]}
			}
			want, got := mk(), mk()
			addScaledForwardGo(want, 0, n)
			addScaledForward(got, 0, n)
			same(t, fmt.Sprintf("AddScaled %v n=%d", cs, n), got.Value.Data, want.Value.Data)
			wantG, gotG := append([]float32(nil), gx...), append([]float32(nil), gx...)
			axpyGo(cs[0], gy, wantG)
			simd.AXPY(cs[0], gy, gotG)
			same(t, fmt.Sprintf("AXPY %v n=%d", cs, n), gotG, wantG)
		}
	}
}

// TestReduceSameVectorMatchesGo: the same-shape gradient of Add and Sub
// (reduceSame without mul, now through simd.AXPY) gives the bits of the
// default build's Go loop, gb[p] += sign·g[p] with the product as the add's
// first operand (its disassembly before this change: MULSS X0, X2; ADDSS
// X1, X2), for sign +1 and −1 and pieces that start and end anywhere, NaN
// payloads, infinities, subnormals and signed zeros included.
func TestReduceSameVectorMatchesGo(t *testing.T) {
	if !simd.Enabled() || goFusesFMA {
		t.Skip("no vector kernels in this build: the Go loops are the path")
	}
	vals := []float32{0, float32(math.Copysign(0, -1)), 1e-40, -1e-40, float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.Float32frombits(0xffc00001), math.Float32frombits(0x7fc00005), 1.5, -2.25, 3e38, -3e38, 0.1}
	r := rand.New(rand.NewPCG(17, 19))
	for _, sign := range []float32{1, -1} {
		for n := 0; n <= 40; n++ {
			g, gb := make([]float32, n), make([]float32, n)
			for i := range g {
				g[i], gb[i] = vals[r.IntN(len(vals))], vals[r.IntN(len(vals))]
			}
			lo, hi := min(n, r.IntN(5)), n-min(n, r.IntN(5))
			if hi < lo {
				hi = lo
			}
			mk := func() *reduction {
				return &reduction{g: &tensor.Dense{Rows: 1, Cols: n, Data: g}, gb: &tensor.Dense{Rows: 1, Cols: n, Data: append([]float32(nil), gb...)}, sign: sign}
			}
			got := mk()
			reduceSame(got, lo, hi)
			// the default build's loop: the product rounded, then added
			// with the product as first operand, so of two NaNs the
			// product's (g's: sign is ±1) is kept
			want := append([]float32(nil), gb...)
			for p := lo; p < hi; p++ {
				if prod := sign * g[p]; prod != prod {
					want[p] = prod
				} else {
					want[p] = prod + gb[p]
				}
			}
			same(t, fmt.Sprintf("reduceSame sign %v n=%d [%d,%d)", sign, n, lo, hi), got.gb.Data, want)
		}
	}
}

// TestAddSubVectorMatchesGo checks Add and Sub with a same-shape or 1×cols
// operand on the vector path against the default build's loop
// `or[j] = v + sign·br[j]`: the product rounded, then added with the
// product as first operand, so of two NaNs the product's (b's: sign is ±1)
// is kept; ±0, subnormals, infinities, NaN payloads, widths 1–40, 64, 257
// and 600, 7 and 150 rows (a row vector's tile of addRowTile floats is
// several calls over 150 rows), row ranges that start and end anywhere.
func TestAddSubVectorMatchesGo(t *testing.T) {
	if !simd.Enabled() || goFusesFMA {
		t.Skip("no vector kernels in this build: the Go loops are the path")
	}
	vals := []float32{0, float32(math.Copysign(0, -1)), 1e-40, -1e-40, float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.Float32frombits(0xffc00001), math.Float32frombits(0x7fc00005), 1.5, -2.25, 3e38, -3e38, 0.1}
	r := rand.New(rand.NewPCG(41, 43))
	for _, sign := range []float32{1, -1} {
		for _, k := range []bcast{bcSame, bcRow} {
			widths := []int{64, 257, 600}
			for cols := 1; cols <= 40; cols++ {
				widths = append(widths, cols)
			}
			for _, rows := range []int{7, 150} {
				for _, cols := range widths {
					a := make([]float32, rows*cols)
					b := make([]float32, rows*cols)
					if k == bcRow {
						b = b[:cols]
					}
					for i := range a {
						a[i] = vals[r.IntN(len(vals))]
					}
					for i := range b {
						b[i] = vals[r.IntN(len(vals))]
					}
					lo, hi := r.IntN(3), rows-r.IntN(3)
					got := make([]float32, rows*cols)
					addSubVector(k, a, b, got, cols, sign, lo, hi)
					want := make([]float32, rows*cols)
					for i := lo; i < hi; i++ {
						br := b[:cols]
						if k == bcSame {
							br = b[i*cols : (i+1)*cols]
						}
						for j := 0; j < cols; j++ {
							if prod := sign * br[j]; prod != prod {
								want[i*cols+j] = prod
							} else {
								want[i*cols+j] = prod + a[i*cols+j]
							}
						}
					}
					same(t, fmt.Sprintf("addSub kind %d sign %v cols %d [%d,%d)", k, sign, cols, lo, hi), got, want)
				}
			}
		}
	}
}

// TestSegmentMeanVectorMatchesGo checks SegmentMean's sums and its backward
// on the vector path (simd.AXPY) against the default build's loops: the
// forward or[j] = v + or[j] (v first: of two NaNs v's is kept), the
// backward gr[j] = float32(g·f) + gr[j] (the product first); widths 1–20,
// rows in several segments and none, ±0, subnormals, infinities, NaN
// payloads, 1 and 3 goroutines.
func TestSegmentMeanVectorMatchesGo(t *testing.T) {
	if !simd.Enabled() || goFusesFMA {
		t.Skip("no vector kernels in this build: the Go loops are the path")
	}
	vals := []float32{0, float32(math.Copysign(0, -1)), 1e-40, float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.Float32frombits(0xffc00001), math.Float32frombits(0x7fc00005), 1.5, -2.25, 3e38}
	r := rand.New(rand.NewPCG(59, 61))
	pick := func() float32 {
		if r.IntN(6) == 0 {
			return vals[r.IntN(len(vals))]
		}
		return float32(r.NormFloat64())
	}
	nan2 := func(a, b float32) float32 { // a + b with a first
		if a != a {
			return a
		}
		return a + b
	}
	for cols := 1; cols <= 20; cols++ {
		const rows, numSeg = 60, 4
		x := tensor.NewDense(rows, cols)
		gy := tensor.NewDense(numSeg, cols)
		seg := make([]int32, rows)
		for i := range x.Data {
			x.Data[i] = pick()
		}
		for i := range gy.Data {
			gy.Data[i] = pick()
		}
		for i := range seg {
			seg[i] = int32(r.IntN(numSeg+1)) - 1 // −1: no segment
		}
		// the loops, with the operand order of the default build
		inv := make([]float32, numSeg)
		for _, s := range seg {
			if s >= 0 {
				inv[s]++
			}
		}
		for s, c := range inv {
			if c > 0 {
				inv[s] = 1 / c
			}
		}
		want := make([]float32, numSeg*cols)
		for i, s := range seg {
			if s >= 0 {
				for j := 0; j < cols; j++ {
					want[int(s)*cols+j] = nan2(x.Data[i*cols+j], want[int(s)*cols+j])
				}
			}
		}
		for s, f := range inv {
			for j := s * cols; j < (s+1)*cols; j++ {
				want[j] *= f
			}
		}
		wantGrad := make([]float32, rows*cols)
		for i, s := range seg {
			if s >= 0 {
				for j := 0; j < cols; j++ {
					wantGrad[i*cols+j] = nan2(gy.Data[int(s)*cols+j]*inv[s], wantGrad[i*cols+j])
				}
			}
		}
		for _, threads := range []int{1, 3} {
			p := NewParam("x", x.Clone())
			tp := NewTape(tensor.Exec{Threads: threads})
			out := tp.SegmentMean(p, seg, numSeg)
			same(t, fmt.Sprintf("SegmentMean cols %d", cols), out.Value.Data, want)
			tp.Backward(tp.Sum(tp.Mul(out, tp.Const(gy))))
			same(t, fmt.Sprintf("SegmentMean backward cols %d, %d threads", cols, threads), p.Grad.Data, wantGrad)
		}
	}
}

// TestGatherBackVectorMatchesGo checks Gather's backward on the vector path
// (simd.AXPY, c = 1) against the default build's loop gr[j] = g + gr[j] (g
// first: of two NaNs g's is kept), with repeated indices (accumulated in q
// order), widths 1–20, ±0, subnormals, infinities and NaN payloads.
func TestGatherBackVectorMatchesGo(t *testing.T) {
	if !simd.Enabled() || goFusesFMA {
		t.Skip("no vector kernels in this build: the Go loops are the path")
	}
	vals := []float32{0, float32(math.Copysign(0, -1)), 1e-40, float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.Float32frombits(0xffc00001), math.Float32frombits(0x7fc00005), 1.5, -2.25, 3e38}
	r := rand.New(rand.NewPCG(67, 71))
	for cols := 1; cols <= 20; cols++ {
		const rows, n = 30, 50
		x := tensor.NewDense(rows, cols)
		gy := tensor.NewDense(n, cols)
		for i := range gy.Data {
			gy.Data[i] = float32(r.NormFloat64())
			if r.IntN(5) == 0 {
				gy.Data[i] = vals[r.IntN(len(vals))]
			}
		}
		idx := make([]int32, n)
		for q := range idx {
			idx[q] = int32(r.IntN(rows))
		}
		want := make([]float32, rows*cols)
		for q, i := range idx {
			for j := 0; j < cols; j++ {
				g, w := gy.Data[q*cols+j], want[int(i)*cols+j]
				if g != g {
					want[int(i)*cols+j] = g
				} else {
					want[int(i)*cols+j] = g + w
				}
			}
		}
		p := NewParam("x", x)
		tp := NewTape(tensor.Serial)
		out := tp.Gather(p, idx)
		tp.Backward(tp.Sum(tp.Mul(out, tp.Const(gy))))
		same(t, fmt.Sprintf("Gather backward cols %d", cols), p.Grad.Data, want)
	}
}

// mulFirst is a·b as MULSS gives it with a as first operand: of two NaNs,
// a's (quieted). Written out, because a -race build may compile a·b with
// the operands the other way round.
func mulFirst(a, b float32) float32 {
	switch {
	case a != a:
		return a * 1
	case b != b:
		return b * 1
	}
	return a * b
}

// TestMulSpanAXPYMatchesGo checks mulSpan's accumulating scalar case (the
// gradient of Mul by a scalar) on the vector path against the default
// build's loop y[j] = float32(v·c) + y[j] (v first in the product, the
// product first in the sum), lengths 0–40, ±0, subnormals, infinities and
// NaN payloads, c among them.
func TestMulSpanAXPYMatchesGo(t *testing.T) {
	if !simd.Enabled() || goFusesFMA {
		t.Skip("no vector kernels in this build: the Go loops are the path")
	}
	vals := []float32{0, float32(math.Copysign(0, -1)), 1e-40, float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.Float32frombits(0xffc00001), math.Float32frombits(0x7fc00005), 1.5, -2.25, 3e38}
	r := rand.New(rand.NewPCG(83, 89))
	for _, c := range append([]float32{0.5, -3}, vals...) {
		for n := 0; n <= 40; n++ {
			x, y := make([]float32, n), make([]float32, n)
			for i := range x {
				x[i], y[i] = vals[r.IntN(len(vals))], vals[r.IntN(len(vals))]
			}
			want := append([]float32(nil), y...)
			for j, v := range x {
				prod := mulFirst(v, c)
				if prod != prod {
					want[j] = prod
				} else {
					want[j] = prod + y[j]
				}
			}
			got := append([]float32(nil), y...)
			mulSpan(c, nil, x, got, true)
			same(t, fmt.Sprintf("mulSpan c %v n %d", c, n), got, want)
		}
	}
}
