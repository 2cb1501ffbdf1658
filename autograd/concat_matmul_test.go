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

// TestConcatMatMulMatchesConcatThenMatMul: ConcatMatMul gives the bits of
// MatMul(ConcatCols(...)) in the value and in every gradient, GCNII*'s way
// (x₁ used again afterwards, so that its gradient is a later one, and x₀
// before, so that a first one) and with inputs used only there, for widths
// on both sides of the tile's 16 and the blocking's 256 (the inner index of
// ∂w too, with an input mostly zeros), at 1–3 threads.
func TestConcatMatMulMatchesConcatThenMatMul(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 39))
	// sh[3] = 1: inputs of equal width, which the two-source tiles take
	// (tensor.GemmConcatA) where the output is 16k wide
	for _, sh := range [][4]int{{7, 3, 5, 0}, {37, 16, 16, 0}, {50, 64, 64, 0}, {20, 300, 17, 0}, {600, 64, 64, 0},
		{37, 16, 16, 1}, {50, 64, 64, 1}, {61, 9, 32, 1}, {600, 64, 64, 1}} {
		rows, c0, n := sh[0], sh[1], sh[2]
		c1 := c0 + 3
		if sh[3] == 1 {
			c1 = c0
		}
		for threads := 1; threads <= 3; threads++ {
			for _, reuse := range []bool{false, true} {
				t.Run(fmt.Sprintf("%dx(%d+%d)x%d/threads=%d/reuse=%v", rows, c0, c1, n, threads, reuse), func(t *testing.T) {
					mk := func(r0, c int) *tensor.Dense {
						d := tensor.NewDense(r0, c)
						specialFillFinite(r, d.Data)
						return d
					}
					x0, x1, w, lw := mk(rows, c0), mk(rows, c1), mk(c0+c1, n), mk(rows, n)
					if rows == 600 { // x₁ mostly zeros, as after a ReLU and dropout: Gemm's sparse-left path for x₁ᵀ·∂out
						for i := range x1.Data {
							if r.IntN(10) < 8 {
								x1.Data[i] = 0
							}
						}
					}
					run := func(fused bool) [][]float32 {
						p0, p1, pw := NewParam("x0", x0.Clone()), NewParam("x1", x1.Clone()), NewParam("w", w.Clone())
						tp := NewTape(tensor.Exec{Threads: threads})
						a0, a1 := tp.Scale(p0, 0.5), tp.Scale(p1, 1.5)
						var y *Var
						if fused {
							y = tp.ConcatMatMul(pw, a0, a1)
						} else {
							y = tp.MatMul(tp.ConcatCols(a0, a1), pw)
						}
						loss := tp.Sum(tp.Mul(y, tp.Const(lw)))
						if reuse { // a1's gradient arrives here first, a0's in the product
							loss = tp.Add(loss, tp.Sum(tp.Mul(a1, a1)))
						}
						out := append([]float32(nil), y.Value.Data...)
						tp.Backward(loss)
						return [][]float32{out, p0.Grad.Data, p1.Grad.Data, pw.Grad.Data}
					}
					want, got := run(false), run(true)
					for i, what := range []string{"value", "∂x0", "∂x1", "∂w"} {
						same(t, what, got[i], want[i])
					}
				})
			}
		}
	}
}

// specialFillFinite fills x with values in (−1, 1), a tenth of them zeros
// of either sign.
func specialFillFinite(r *rand.Rand, x []float32) {
	for i := range x {
		switch r.IntN(20) {
		case 0:
			x[i] = 0
		case 1:
			x[i] = float32(math.Copysign(0, -1))
		default:
			x[i] = 2*r.Float32() - 1
		}
	}
}

// TestConcatMatMulGradient checks ConcatMatMul's gradients by finite
// differences.
func TestConcatMatMulGradient(t *testing.T) {
	check(t, "ConcatMatMul", func(tp *Tape, p []*Var) *Var { return tp.ConcatMatMul(p[2], p[0], p[1]) },
		testkit.RandDense(5, 3, 41), testkit.RandDense(5, 2, 42), testkit.RandDense(5, 4, 43))
}

// ExampleTape_ConcatMatMul multiplies two matrices side by side by one
// weight, as MatMul(ConcatCols(a, b), w) does.
func ExampleTape_ConcatMatMul() {
	tp := NewTape(tensor.Serial)
	a := tp.Const(&tensor.Dense{Rows: 1, Cols: 1, Data: []float32{2}})
	b := tp.Const(&tensor.Dense{Rows: 1, Cols: 2, Data: []float32{3, 4}})
	w := NewParam("w", &tensor.Dense{Rows: 3, Cols: 1, Data: []float32{1, 10, 100}})
	y := tp.ConcatMatMul(w, a, b)
	tp.Backward(tp.Sum(y))
	fmt.Println(y.Value.Data, w.Grad.Data)
	// Output: [432] [2 3 4]
}

// TestConcatMatMulAddVectorMatchesGo: the vector form of the later
// gradient's addition gives the Go loop's bits, NaN payloads (both
// operands NaN: the gradient's own), ±0, infinities and subnormal products
// included, for widths around the vector's 8 and any row range.
func TestConcatMatMulAddVectorMatchesGo(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels here: the Go loop is the path")
	}
	r := rand.New(rand.NewPCG(42, 46))
	for _, c := range []int{1, 7, 8, 9, 64, 65} {
		x := &Var{Value: tensor.NewDense(13, c)}
		x.Grad = specialDense(r, 13, c)
		o := &Var{xs: []*Var{x}, aux2: specialDense(r, 13, c)}
		want := x.Grad.Clone()
		concatMatMulAddGo(want.Data, o.aux2.Data, c, 2, 11)
		concatMatMulAdd(o, 2, 11)
		same(t, fmt.Sprintf("c=%d", c), x.Grad.Data, want.Data)
	}
}
