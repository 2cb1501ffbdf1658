package autograd

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// TestReLUAddRowsMatchesAddsThenReLU: ReLUAddRows gives the kept rows of
// ReLU(Add(Add(Add(p, bias), a), b)) and +0 elsewhere, and for a loss
// reading only those rows the four operations' gradients of p, the bias, a
// and b bit for bit (NaN payloads, ±0, infinities; p's gradient fresh or
// not, a's gradient arriving first), at 1–3 threads.
func TestReLUAddRowsMatchesAddsThenReLU(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 48))
	for _, sh := range [][2]int{{9, 5}, {70, 64}, {300, 33}} {
		n, cols := sh[0], sh[1]
		for _, share := range []int{0, 4, 10} {
			for _, mode := range []string{"plain", "p-again", "a-first"} {
				for threads := 1; threads <= 3; threads++ {
					t.Run(fmt.Sprintf("%dx%d/kept=%d0%%/%s/threads=%d", n, cols, share, mode, threads), func(t *testing.T) {
						p, bias, a, b := specialDense(r, n, cols), specialDense(r, 1, cols), specialDense(r, n, cols), specialDense(r, n, cols)
						rows := pickRows(r, n, share)
						lw := outsideZeros(r, specialDense(r, n, cols), rows)
						run := func(fused bool) [][]float32 {
							tp := NewTape(tensor.Exec{Threads: threads})
							// a first step on the tape leaves its buffers
							// dirty for the step compared: gradients
							// written rather than zeroed then added to
							// must not keep what the buffers held
							var ps []*Var
							var vp, va, vb *Var
							for step := range 2 {
								ps = []*Var{NewParam("p", p.Clone()), NewParam("bias", bias.Clone()), NewParam("a", a.Clone()), NewParam("b", b.Clone())}
								tp.Reset()
								vp, va, vb = tp.Scale(ps[0], 1), tp.Scale(ps[2], 1), tp.Scale(ps[3], 1)
								if step == 0 {
									d := specialDense(r, n, cols)
									tp.Backward(tp.Sum(tp.Mul(tp.ReLUAddRows(rows, vp, ps[1], va, vb), tp.Const(d))))
								}
							}
							var h *Var
							if fused {
								h = tp.ReLUAddRows(rows, vp, ps[1], va, vb)
							} else {
								h = tp.ReLU(tp.Add(tp.Add(tp.Add(vp, ps[1]), va), vb))
							}
							loss := tp.Sum(tp.Mul(h, tp.Const(lw)))
							switch mode {
							case "p-again":
								loss = tp.Add(loss, tp.Sum(tp.Mul(vp, tp.Const(lw))))
							case "a-first":
								loss = tp.Add(loss, tp.Sum(tp.Mul(va, tp.Const(lw))))
							}
							out := append([]float32(nil), h.Value.Data...)
							tp.Backward(loss)
							res := [][]float32{out}
							for _, q := range ps {
								res = append(res, q.Grad.Data)
							}
							return res
						}
						want, got := run(false), run(true)
						for i := range want[0] {
							if !inRows(rows, i/cols) {
								want[0][i] = 0
							}
						}
						for i, what := range []string{"value", "∂p", "∂bias", "∂a", "∂b"} {
							same(t, what, got[i], want[i])
						}
					})
				}
			}
		}
	}
}

// TestReLUAddRowsGradient checks ReLUAddRows' gradients by finite
// differences, with a loss weighing every row.
func TestReLUAddRowsGradient(t *testing.T) {
	rows := []int32{0, 2, 3}
	check(t, "ReLUAddRows", func(tp *Tape, p []*Var) *Var { return tp.ReLUAddRows(rows, p[0], p[1], p[2], p[3]) },
		randAway(5, 4, 55, 0.3), small(testkit.RandDense(1, 4, 56)), small(testkit.RandDense(5, 4, 57)), small(testkit.RandDense(5, 4, 58)))
}

// small scales d by 0.01 in place (the sum kept away from ReLU's kink).
func small(d *tensor.Dense) *tensor.Dense {
	for i := range d.Data {
		d.Data[i] *= 0.01
	}
	return d
}

// TestAddBiasRowsMatchesAdd: AddBiasRows gives Add's kept rows and +0
// elsewhere, and for a loss reading only those rows Add's gradients bit
// for bit (NaN payloads, ±0, infinities; ∂p fresh or not), at 1–3 threads;
// its gradients pass a finite-difference check with a loss over every row.
func TestAddBiasRowsMatchesAdd(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 49))
	for _, sh := range [][2]int{{9, 5}, {70, 64}, {300, 33}} {
		n, cols := sh[0], sh[1]
		for _, share := range []int{0, 4, 10} {
			for _, again := range []bool{false, true} {
				for threads := 1; threads <= 3; threads++ {
					t.Run(fmt.Sprintf("%dx%d/kept=%d0%%/again=%v/threads=%d", n, cols, share, again, threads), func(t *testing.T) {
						p, bias := specialDense(r, n, cols), specialDense(r, 1, cols)
						rows := pickRows(r, n, share)
						lw := outsideZeros(r, specialDense(r, n, cols), rows)
						run := func(fused bool) [][]float32 {
							pp, pb := NewParam("p", p.Clone()), NewParam("bias", bias.Clone())
							tp := NewTape(tensor.Exec{Threads: threads})
							vp := tp.Scale(pp, 1)
							var h *Var
							if fused {
								h = tp.AddBiasRows(rows, vp, pb)
							} else {
								h = tp.Add(vp, pb)
							}
							loss := tp.Sum(tp.Mul(h, tp.Const(lw)))
							if again { // p's gradient arrives first
								loss = tp.Add(loss, tp.Sum(tp.Mul(vp, tp.Const(lw))))
							}
							out := append([]float32(nil), h.Value.Data...)
							tp.Backward(loss)
							return [][]float32{out, pp.Grad.Data, pb.Grad.Data}
						}
						want, got := run(false), run(true)
						for i := range want[0] {
							if !inRows(rows, i/cols) {
								want[0][i] = 0
							}
						}
						for i, what := range []string{"value", "∂p", "∂bias"} {
							same(t, what, got[i], want[i])
						}
					})
				}
			}
		}
	}
	check(t, "AddBiasRows", func(tp *Tape, p []*Var) *Var { return tp.AddBiasRows([]int32{0, 3}, p[0], p[1]) },
		testkit.RandDense(5, 4, 59), testkit.RandDense(1, 4, 60))
}
