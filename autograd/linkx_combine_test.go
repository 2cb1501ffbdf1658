package autograd

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// TestLINKXCombineRowsMatchesTwoOps: LINKXCombineRows gives the value and
// every gradient of ReLUAddRows over ConcatMatMulRows bit for bit, at 1–3
// threads, on inputs with ±0, NaN payloads, infinities and subnormals, kept
// rows whose gradient is zero, shares of rows on both sides of n − n/8 (the
// two operations recorded there), with a and b fresh or holding an earlier
// gradient, and with a, b or w not requiring gradients.
func TestLINKXCombineRowsMatchesTwoOps(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 93))
	for _, sh := range [][2]int{{9, 4}, {70, 16}, {300, 32}, {600, 24}, {1100, 16}} {
		n, h := sh[0], sh[1]
		for _, share := range []int{0, 3, 5, 8, 10} {
			for _, mode := range []string{"fresh", "earlier a", "earlier b", "const a", "const w"} {
				for threads := 1; threads <= 3; threads++ {
					t.Run(fmt.Sprintf("%dx%d/kept=%d0%%/%s/threads=%d", n, h, share, mode, threads), func(t *testing.T) {
						a, b, w, bias := specialDense(r, n, h), specialDense(r, n, h), tensor.NewDense(2*h, h), specialDense(r, 1, h)
						specialFillFinite(r, w.Data)
						rows := pickRows(r, n, share)
						lw := outsideZeros(r, specialDense(r, n, h), rows)
						for _, i := range rows { // some kept rows with a zero gradient
							if share != 8 && r.IntN(4) == 0 {
								clear(lw.Data[int(i)*h : (int(i)+1)*h])
							}
						}
						pre := specialDense(r, n, h)
						run := func(fused bool) [][]float32 {
							pa, pb, pw, pbias := NewParam("a", a.Clone()), NewParam("b", b.Clone()), NewParam("w", w.Clone()), NewParam("bias", bias.Clone())
							tp := NewTape(tensor.Exec{Threads: threads})
							xa, xb := tp.Scale(pa, 1), tp.Scale(pb, 1)
							wv := pw
							switch mode {
							case "const a":
								xa = tp.Const(a)
							case "const w":
								wv = tp.Const(w)
							}
							var y *Var
							if fused {
								y = tp.LINKXCombineRows(rows, wv, pbias, xa, xb)
							} else {
								y = tp.ReLUAddRows(rows, tp.ConcatMatMulRows(rows, wv, xa, xb), pbias, xa, xb)
							}
							loss := tp.Sum(tp.Mul(y, tp.Const(lw)))
							switch mode { // this gradient arrives first
							case "earlier a":
								loss = tp.Add(loss, tp.Sum(tp.Mul(xa, tp.Const(pre))))
							case "earlier b":
								loss = tp.Add(loss, tp.Sum(tp.Mul(xb, tp.Const(pre))))
							}
							out := append([]float32(nil), y.Value.Data...)
							tp.Backward(loss)
							res := [][]float32{out, pbias.Grad.Data}
							for _, p := range []*Var{pa, pb, pw} {
								if p.Grad != nil {
									res = append(res, p.Grad.Data)
								} else {
									res = append(res, nil)
								}
							}
							return res
						}
						want, got := run(false), run(true)
						for i, what := range []string{"value", "∂bias", "∂a", "∂b", "∂w"} {
							if (got[i] == nil) != (want[i] == nil) || len(got[i]) != len(want[i]) {
								t.Fatalf("%s: %d values, want %d", what, len(got[i]), len(want[i]))
							}
							same(t, what, got[i], want[i])
						}
					})
				}
			}
		}
	}
	// the sums kept away from ReLU's kink: a bias of ±[0.5, 1.5), the rest small
	rows := make([]int32, 0, 80)
	for i := 0; i < 80; i += 2 {
		rows = append(rows, int32(i))
	}
	check(t, "LINKXCombineRows", func(tp *Tape, p []*Var) *Var { return tp.LINKXCombineRows(rows, p[2], p[3], p[0], p[1]) },
		small(testkit.RandDense(80, 16, 64)), small(testkit.RandDense(80, 16, 65)), small(testkit.RandDense(32, 16, 66)), randAway(1, 16, 67, 0.5))
}
