package autograd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// TestAddRowBackMatchesReductions: a bias add's backward in one loop
// (addRowBack) gives the bits of addSubBack's two reductions — ∂a += ∂out
// and ∂b ± the column sums — for Add and Sub, a first ∂a (the tape's
// recycled buffers hold NaNs) and one that already holds values, widths
// below, at and above the vector kernels' eight and sixteen, rows over
// several reduceBlock blocks, NaN payloads, ±0, infinities and subnormals
// in ∂out, 1–3 threads.
func TestAddRowBackMatchesReductions(t *testing.T) {
	if !simd.Enabled() || goFusesFMA {
		t.Skip("no vector kernels in this build: addSubBack takes its reductions")
	}
	specials := []float32{float32(math.NaN()), math.Float32frombits(0xffc00003), float32(math.Copysign(0, -1)), 0,
		float32(math.Inf(1)), float32(math.Inf(-1)), 1e-40, 3e38}
	r := rand.New(rand.NewPCG(46, 11))
	for _, cols := range []int{1, 5, 8, 13, 16, 64} {
		for _, sign := range []float32{1, -1} {
			for _, first := range []bool{true, false} {
				for _, threads := range []int{1, 2, 3} {
					name := fmt.Sprintf("cols=%d/sign=%v/first=%v/threads=%d", cols, sign, first, threads)
					t.Run(name, func(t *testing.T) {
						rows := 2*reduceBlock + 45
						g := tensor.NewDense(rows, cols)
						for i := range g.Data {
							g.Data[i] = 2*r.Float32() - 1
							if r.IntN(50) == 0 {
								g.Data[i] = specials[r.IntN(len(specials))]
							}
						}
						ga0, gb0 := tensor.NewDense(rows, cols), tensor.NewDense(1, cols)
						for i := range ga0.Data {
							ga0.Data[i] = 2*r.Float32() - 1
						}
						for i := range gb0.Data {
							gb0.Data[i] = 2*r.Float32() - 1
						}
						run := func(fused bool) (ga, gb []float32) {
							tp := NewTape(tensor.Exec{Threads: threads})
							for range 4 {
								d := tp.Alloc(rows, cols)
								for i := range d.Data {
									d.Data[i] = float32(math.NaN())
								}
								tp.giveBack(d)
							}
							a := &Var{Value: tensor.NewDense(rows, cols), requiresGrad: true}
							b := &Var{Value: tensor.NewDense(1, cols), requiresGrad: true, Grad: gb0.Clone()}
							if !first {
								a.Grad = ga0.Clone()
							}
							o := &Var{Value: tensor.NewDense(rows, cols), Grad: g, tape: tp, in: [2]*Var{a, b}, kind: bcRow, p: sign}
							if fused {
								addRowBack(o)
							} else {
								tp.reduceInto(bcSame, o.Grad, tp.grad(a), nil, 1)
								tp.reduceInto(bcRow, o.Grad, tp.grad(b), nil, sign)
							}
							return a.Grad.Data, b.Grad.Data
						}
						fa, fb := run(true)
						ua, ub := run(false)
						same(t, "∂a", fa, ua)
						same(t, "∂b", fb, ub)
					})
				}
			}
		}
	}
}
