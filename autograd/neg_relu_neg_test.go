package autograd

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

// TestNegReLUNegMatchesThreeOps: NegReLUNeg gives the bits of
// Neg(ReLU(Neg(x))) in value and gradient (NaN payloads, ±0, infinities;
// x's gradient fresh or arriving first, as GGCN's ReLU(w) beside it), sizes
// on both sides of its block, at 1–3 threads; and passes a finite-difference
// check away from the kink.
func TestNegReLUNegMatchesThreeOps(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 51))
	for _, sh := range [][2]int{{900, 1}, {3, 5}, {70, 64}} {
		for _, again := range []bool{false, true} {
			for threads := 1; threads <= 3; threads++ {
				t.Run(fmt.Sprintf("%dx%d/again=%v/threads=%d", sh[0], sh[1], again, threads), func(t *testing.T) {
					x, lw, lw2 := specialDense(r, sh[0], sh[1]), specialDense(r, sh[0], sh[1]), specialDense(r, sh[0], sh[1])
					run := func(fused bool) [][]float32 {
						px := NewParam("x", x.Clone())
						tp := NewTape(tensor.Exec{Threads: threads})
						a := tp.Scale(px, 1)
						var y *Var
						if fused {
							y = tp.NegReLUNeg(a)
						} else {
							y = tp.Neg(tp.ReLU(tp.Neg(a)))
						}
						loss := tp.Sum(tp.Mul(y, tp.Const(lw)))
						if again { // as GGCN's pos = ReLU(w), made before: its gradient comes later
							loss = tp.Add(tp.Sum(tp.Mul(tp.ReLU(a), tp.Const(lw2))), loss)
						}
						out := append([]float32(nil), y.Value.Data...)
						tp.Backward(loss)
						return [][]float32{out, px.Grad.Data}
					}
					want, got := run(false), run(true)
					same(t, "value", got[0], want[0])
					same(t, "∂x", got[1], want[1])
				})
			}
		}
	}
	check(t, "NegReLUNeg", func(tp *Tape, p []*Var) *Var { return tp.NegReLUNeg(p[0]) }, randAway(4, 5, 64, 0.1))
}
