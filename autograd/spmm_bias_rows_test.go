package autograd

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// TestSpMMBiasRowsMatchesTwoOps: SpMMBiasRows gives the value and the
// gradients of AddBiasRows over SpMMRows bit for bit, at 1–3 threads, for
// 0/1 values (keptᵀ in backward) and other values (aᵀ over the whole
// gradient), with ∂out holding ±0, NaN payloads, infinities and the
// smallest subnormals (whose products round a chain to −0), zeros of
// either sign outside the rows, and x or the bias not requiring gradients.
func TestSpMMBiasRowsMatchesTwoOps(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 94))
	sym := symmetricCSR(90, 0.1, 17)
	gen := testkit.RandCSR(90, 60, 0.1, 18)
	for _, a := range []*tensor.CSR{sym, gen, unitValues(sym), unitValues(gen)} {
		for _, n := range []int{1, 5, 16, 70} {
			for _, share := range []int{0, 3, 10} {
				for _, mode := range []string{"both", "const x", "const bias"} {
					for threads := 1; threads <= 3; threads++ {
						t.Run(fmt.Sprintf("%s/n=%d/kept=%d0%%/%s/threads=%d", a.Shape(), n, share, mode, threads), func(t *testing.T) {
							x, bias := specialDense(r, a.Cols, n), specialDense(r, 1, n)
							lw := specialDense(r, a.Rows, n)
							for i := range lw.Data {
								if r.IntN(8) == 0 {
									lw.Data[i] = 1e-45 * float32(1-2*r.IntN(2))
								}
							}
							rows := pickRows(r, a.Rows, share)
							lw = outsideZeros(r, lw, rows)
							kept := KeepRows(a, rows)
							run := func(fused bool) [][]float32 {
								px, pb := NewParam("x", x.Clone()), NewParam("bias", bias.Clone())
								tp := NewTape(tensor.Exec{Threads: threads})
								xv, bv := px, pb
								switch mode {
								case "const x":
									xv = tp.Const(x)
								case "const bias":
									bv = tp.Const(bias)
								}
								var y *Var
								if fused {
									y = tp.SpMMBiasRows(kept, xv, bv)
								} else {
									p := tp.SpMMRows(kept, xv)
									y = tp.AddBiasRows(rows, p, bv)
									tp.Release(p)
								}
								out := append([]float32(nil), y.Value.Data...)
								tp.Backward(tp.Sum(tp.Mul(y, tp.Const(lw))))
								res := [][]float32{out, nil, nil}
								if px.Grad != nil {
									res[1] = px.Grad.Data
								}
								if pb.Grad != nil {
									res[2] = pb.Grad.Data
								}
								return res
							}
							want, got := run(false), run(true)
							for i, what := range []string{"value", "∂x", "∂bias"} {
								if len(got[i]) != len(want[i]) {
									t.Fatalf("%s: %d values, want %d", what, len(got[i]), len(want[i]))
								}
								same(t, what, got[i], want[i])
							}
						})
					}
				}
			}
		}
	}
	rows := []int32{0, 2, 3, 6}
	kept := KeepRows(testkit.RandCSR(8, 6, 0.4, 19), rows)
	check(t, "SpMMBiasRows", func(tp *Tape, p []*Var) *Var { return tp.SpMMBiasRows(kept, p[0], p[1]) },
		testkit.RandDense(6, 5, 68), testkit.RandDense(1, 5, 69))
}
