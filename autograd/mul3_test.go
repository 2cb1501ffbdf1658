package autograd

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// TestMulConstMulMatchesTwoMuls: MulConstMul gives the bits of
// Mul(Mul(a, Const(k)), b) in value and both gradients (NaN payloads, ±0,
// ∞; gradients fresh or already holding values), sizes on both sides of
// its block, at 1–3 threads.
func TestMulConstMulMatchesTwoMuls(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 54))
	for _, sh := range [][2]int{{900, 1}, {3000, 1}, {40, 7}} {
		for _, again := range []bool{false, true} {
			for threads := 1; threads <= 3; threads++ {
				t.Run(fmt.Sprintf("%dx%d/again=%v/threads=%d", sh[0], sh[1], again, threads), func(t *testing.T) {
					a, b, k, lw := specialDense(r, sh[0], sh[1]), specialDense(r, sh[0], sh[1]), specialDense(r, sh[0], sh[1]), specialDense(r, sh[0], sh[1])
					run := func(fused bool) [][]float32 {
						pa, pb := NewParam("a", a.Clone()), NewParam("b", b.Clone())
						tp := NewTape(tensor.Exec{Threads: threads})
						va, vb := tp.Scale(pa, 1), tp.Scale(pb, 1)
						var y *Var
						if fused {
							y = tp.MulConstMul(va, k, vb)
						} else {
							y = tp.Mul(tp.Mul(va, tp.Const(k)), vb)
						}
						loss := tp.Sum(tp.Mul(y, tp.Const(lw)))
						if again { // a's and b's gradients arrive first from here
							loss = tp.Add(loss, tp.Sum(tp.Mul(tp.Mul(va, vb), tp.Const(lw))))
						}
						out := append([]float32(nil), y.Value.Data...)
						tp.Backward(loss)
						return [][]float32{out, pa.Grad.Data, pb.Grad.Data}
					}
					want, got := run(false), run(true)
					for i, what := range []string{"value", "∂a", "∂b"} {
						same(t, what, got[i], want[i])
					}
				})
			}
		}
	}
	check(t, "MulConstMul", func(tp *Tape, p []*Var) *Var { return tp.MulConstMul(p[0], testkit.RandDense(4, 3, 69), p[1]) },
		testkit.RandDense(4, 3, 70), testkit.RandDense(4, 3, 71))
}
