package autograd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// TestMulScalarMatchesMul: MulScalar gives Mul's bits for a 1×1 factor in
// value and both gradients (NaN payloads, ±0, infinities in x and in the
// factor), sizes on both sides of its block, at 1–3 threads.
func TestMulScalarMatchesMul(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 52))
	for _, sh := range [][2]int{{900, 1}, {3, 5}, {251, 16}} {
		for _, c := range []float32{0.7, -1.5, 0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), math.Float32frombits(0x7fc01234)} {
			for threads := 1; threads <= 3; threads++ {
				t.Run(fmt.Sprintf("%dx%d/c=%v/threads=%d", sh[0], sh[1], c, threads), func(t *testing.T) {
					x, lw := specialDense(r, sh[0], sh[1]), specialDense(r, sh[0], sh[1])
					run := func(fused bool) [][]float32 {
						px, ps := NewParam("x", x.Clone()), NewParam("s", tensor.FromRows([][]float32{{c}}))
						tp := NewTape(tensor.Exec{Threads: threads})
						var y *Var
						if fused {
							y = tp.MulScalar(px, ps)
						} else {
							y = tp.Mul(px, ps)
						}
						out := append([]float32(nil), y.Value.Data...)
						tp.Backward(tp.Sum(tp.Mul(y, tp.Const(lw))))
						return [][]float32{out, px.Grad.Data, ps.Grad.Data}
					}
					want, got := run(false), run(true)
					for i, what := range []string{"value", "∂x", "∂s"} {
						same(t, what, got[i], want[i])
					}
				})
			}
		}
	}
	check(t, "MulScalar", func(tp *Tape, p []*Var) *Var { return tp.MulScalar(p[0], p[1]) },
		testkit.RandDense(4, 3, 65), testkit.RandDense(1, 1, 66))
}

// TestMulScalarColMatchesSliceThenMul: MulScalarCol gives the bits of
// MulScalar(x, SliceCols(c, k, k+1)) (and so of Mul) in value and both
// gradients, every column of a 1×3 row, the row's gradient fresh or
// already holding a value, with NaN payloads, ±0 and ∞, at 1–3 threads.
func TestMulScalarColMatchesSliceThenMul(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 53))
	for _, sh := range [][2]int{{900, 1}, {251, 16}} {
		for k := 0; k < 3; k++ {
			for _, again := range []bool{false, true} {
				for threads := 1; threads <= 3; threads++ {
					t.Run(fmt.Sprintf("%dx%d/k=%d/again=%v/threads=%d", sh[0], sh[1], k, again, threads), func(t *testing.T) {
						x, lw, c := specialDense(r, sh[0], sh[1]), specialDense(r, sh[0], sh[1]), specialDense(r, 1, 3)
						run := func(fused bool) [][]float32 {
							px, pc := NewParam("x", x.Clone()), NewParam("c", c.Clone())
							tp := NewTape(tensor.Exec{Threads: threads})
							cc := tp.Scale(pc, 1)
							var y *Var
							if fused {
								y = tp.MulScalarCol(px, cc, k)
							} else {
								y = tp.Mul(px, tp.SliceCols(cc, k, k+1))
							}
							loss := tp.Sum(tp.Mul(y, tp.Const(lw)))
							if again { // c's gradient arrives first from here
								loss = tp.Add(loss, tp.Sum(tp.Mul(cc, tp.Const(c))))
							}
							out := append([]float32(nil), y.Value.Data...)
							tp.Backward(loss)
							return [][]float32{out, px.Grad.Data, pc.Grad.Data}
						}
						want, got := run(false), run(true)
						for i, what := range []string{"value", "∂x", "∂c"} {
							same(t, what, got[i], want[i])
						}
					})
				}
			}
		}
	}
	check(t, "MulScalarCol", func(tp *Tape, p []*Var) *Var { return tp.MulScalarCol(p[0], p[1], 1) },
		testkit.RandDense(4, 3, 67), testkit.RandDense(1, 3, 68))
}
