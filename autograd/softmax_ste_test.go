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

// TestSoftmaxSTEGrad: with hard the softmax itself (so that the value moves
// with x, as the gradient says), SoftmaxSTE's gradient is the numerical one.
func TestSoftmaxSTEGrad(t *testing.T) {
	for i, s := range oddShapes {
		check(t, "SoftmaxSTE", func(tp *Tape, p []*Var) *Var {
			return tp.SoftmaxSTE(tp.Softmax(tp.Scale(p[0], 1.7)), p[0], 1.7)
		}, testkit.RandDense(s[0], s[1], 70+uint64(i)))
	}
}

// TestSoftmaxSTEMatchesChain holds SoftmaxSTE to STE(hard, Softmax(Scale(x,
// c))) bit for bit: its value (hard's) and the gradient it gives x (a
// parameter holding numbers already, or a tape value written first), with
// NaN payloads, ±0, infinities and subnormals in x and in the incoming
// gradient, c of 2, 0.3 and −1, widths 1 to 9, 64 and 600 (wider than a
// span: the chain itself), row counts across spans, 1 to 3 threads; and
// without a gradient to give it returns hard's value alone.
func TestSoftmaxSTEMatchesChain(t *testing.T) {
	r := rand.New(rand.NewPCG(44, 45))
	fill := func(d *tensor.Dense, rate int) { fillSpecialOr(r, d.Data, rate) }
	loose := !simd.Enabled() || raceBuild || goFusesFMA
	same := func(what string, got, want []float32) {
		t.Helper()
		for i := range got {
			g, w := math.Float32bits(got[i]), math.Float32bits(want[i])
			if g == w || loose && isNaN32(got[i]) && isNaN32(want[i]) {
				continue
			}
			t.Fatalf("%s: element %d is %#x (%v), the chain gives %#x (%v)", what, i, g, got[i], w, want[i])
		}
	}
	for _, shape := range [][2]int{{1, 1}, {3, 2}, {7, 5}, {100, 3}, {300, 5}, {1000, 5}, {13, 4}, {11, 6}, {33, 7}, {50, 8}, {600, 9}, {257, 64}, {5, 600}} {
		rows, cols := shape[0], shape[1]
		for trial := 0; trial < 6; trial++ {
			xv, up, g0, hv := tensor.NewDense(rows, cols), tensor.NewDense(rows, cols), tensor.NewDense(rows, cols), tensor.NewDense(rows, cols)
			fill(xv, 1+7*(trial%2)*8) // every element special, or one in 64
			fill(up, 8)
			fill(g0, 8)
			fill(hv, 4)
			c := []float32{2, 0.3, -1}[trial%3]
			for threads := 1; threads <= 3; threads++ {
				label := fmt.Sprintf("%d×%d trial %d threads %d", rows, cols, trial, threads)
				var vals, gx [2][]float32
				for v, fused := range []bool{false, true} {
					tp := NewTape(tensor.Exec{Threads: threads})
					px := NewParam("x", xv.Clone())
					copy(px.Grad.Data, g0.Data)
					for range 8 { // recycled buffers of NaNs: a first gradient left uncleared shows
						d := tp.Alloc(rows, cols)
						for i := range d.Data {
							d.Data[i] = float32(math.NaN())
						}
						tp.giveBack(d)
					}
					x := px
					if trial >= 3 {
						x = tp.Scale(px, 1) // a tape value: its gradient is written first
					}
					hard := tp.Const(hv.Clone())
					var out *Var
					if fused {
						out = tp.SoftmaxSTE(hard, x, c)
					} else {
						out = tp.STE(hard, tp.Softmax(tp.Scale(x, c)))
					}
					vals[v] = append([]float32(nil), out.Value.Data...)
					tp.Backward(tp.Sum(tp.Mul(out, tp.Const(up))))
					gx[v] = append([]float32(nil), px.Grad.Data...)
				}
				same(label+" value", vals[1], vals[0])
				same(label+" ∂x", gx[1], gx[0])
			}
		}
	}
	tp := NewTape(tensor.Serial)
	hard := tp.Const(testkit.RandDense(4, 3, 1))
	out := tp.SoftmaxSTE(hard, tp.Const(testkit.RandDense(4, 3, 2)), 2)
	if out.RequiresGrad() || &out.Value.Data[0] != &hard.Value.Data[0] {
		t.Fatal("SoftmaxSTE of a constant must be hard's value, without a gradient")
	}
	testkit.Panics(t, "SoftmaxSTE of two shapes", func() { tp.SoftmaxSTE(hard, tp.Const(testkit.RandDense(4, 2, 3)), 2) })
}

// TestSoftmaxBackRowsMatchesGo: simd.SoftmaxBackRows adds the bits of the
// softmax backward's Go loop (softmaxBackSpanGo) into gx, NaN payloads, ±0,
// infinities and subnormals in y, the incoming gradient and gx, widths 1–8.
func TestSoftmaxBackRowsMatchesGo(t *testing.T) {
	if !simd.Enabled() || goFusesFMA {
		t.Skip("the Go loop runs in this build")
	}
	r := rand.New(rand.NewPCG(44, 46))
	sp := floatSpecials()
	val := func(rate int) float32 { return specialOr(r, sp, rate) }
	for cols := 1; cols <= 8; cols++ {
		for trial := 0; trial < 40; trial++ {
			rows := r.IntN(100)
			n := rows * cols
			y, g, gx := make([]float32, n), make([]float32, n), make([]float32, n+1)
			rate := []int{2, 8, 1000}[trial%3]
			for i := 0; i < n; i++ {
				y[i], g[i], gx[i] = val(rate), val(rate), val(rate)
			}
			gx[n] = 4
			want := append([]float32(nil), gx...)
			softmaxBackSpanGo(cols, y, g, want[:n])
			simd.SoftmaxBackRows(y, g, gx[:n], cols)
			for i := range gx {
				if math.Float32bits(gx[i]) != math.Float32bits(want[i]) && !(raceBuild && isNaN32(gx[i]) && isNaN32(want[i])) {
					row := i / cols * cols
					t.Fatalf("cols=%d: element %d is %#x, the loop gives %#x (y %v, g %v)", cols, i, math.Float32bits(gx[i]), math.Float32bits(want[i]), y[row:row+cols], g[row:row+cols])
				}
			}
		}
	}
}
