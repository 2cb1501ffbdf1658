package autograd

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

// TestReLUAddScaledMatchesReLUOfAddScaled: the fused op gives the bits of
// ReLU(AddScaled(...)) in its value and in both gradients, on inputs with
// zeros of both signs, NaNs with payloads, infinities and underflowing
// products, sizes on both sides of its block, gradients first and later
// (a used again afterwards), one input without gradient, a and b one
// variable, at 1–3 threads.
func TestReLUAddScaledMatchesReLUOfAddScaled(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 45))
	for _, sh := range [][2]int{{1, 7}, {16, 64}, {33, 64}, {50, 130}} {
		for _, mode := range []string{"plain", "reuse", "const-b", "same"} {
			for threads := 1; threads <= 3; threads++ {
				t.Run(fmt.Sprintf("%dx%d/%s/threads=%d", sh[0], sh[1], mode, threads), func(t *testing.T) {
					x, y, lw := specialDense(r, sh[0], sh[1]), specialDense(r, sh[0], sh[1]), specialDense(r, sh[0], sh[1])
					run := func(fused bool) [][]float32 {
						tp := NewTape(tensor.Exec{Threads: threads})
						// a first step leaves the tape's buffers dirty for
						// the step compared: gradients written rather than
						// zeroed then added to must not keep their contents
						var px, py, a, b *Var
						for step := range 2 {
							tp.Reset()
							px, py = NewParam("x", x.Clone()), NewParam("y", y.Clone())
							a, b = tp.Scale(px, 1.25), tp.Scale(py, -0.75)
							if step == 0 {
								d := specialDense(r, sh[0], sh[1])
								tp.Backward(tp.Sum(tp.Mul(tp.ReLUAddScaled(a, 0.3, b, 0.7), tp.Const(d))))
							}
						}
						switch mode {
						case "const-b":
							b = tp.Const(y)
						case "same":
							b = a
						}
						var h *Var
						if fused {
							h = tp.ReLUAddScaled(a, 0.3, b, 0.7)
						} else {
							h = tp.ReLU(tp.AddScaled(a, 0.3, b, 0.7))
						}
						loss := tp.Sum(tp.Mul(h, tp.Const(lw)))
						if mode == "reuse" { // a's gradient arrives here first, then in the op
							loss = tp.Add(loss, tp.Sum(tp.Mul(a, tp.Const(lw))))
						}
						out := append([]float32(nil), h.Value.Data...)
						tp.Backward(loss)
						res := [][]float32{out, px.Grad.Data}
						if mode != "const-b" && mode != "same" {
							res = append(res, py.Grad.Data)
						}
						return res
					}
					want, got := run(false), run(true)
					for i, what := range []string{"value", "∂x", "∂y"}[:len(want)] {
						same(t, what, got[i], want[i])
					}
				})
			}
		}
	}
}

// TestReLUAddScaledGradient checks ReLUAddScaled's gradients by finite
// differences.
func TestReLUAddScaledGradient(t *testing.T) {
	check(t, "ReLUAddScaled", func(tp *Tape, p []*Var) *Var { return tp.ReLUAddScaled(p[0], 0.4, p[1], -0.01) }, // the sum kept away from the kink
		randAway(6, 5, 51, 0.05), randAway(6, 5, 52, 0.05))
}
