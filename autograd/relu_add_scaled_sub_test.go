package autograd

import (
	"fmt"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestReLUAddScaledSubGrad(t *testing.T) {
	// x is kept 0.5 away from 0 and a, b within ±0.1, so that no
	// pre-activation is within finite-difference reach of ReLU's kink
	small := func(seed uint64) *tensor.Dense {
		d := testkit.RandDense(7, 5, seed)
		for i := range d.Data {
			d.Data[i] *= 0.1
		}
		return d
	}
	mask := &tensor.Dense{Rows: 7, Cols: 1, Data: []float32{1, 0, 1, 1, 0, 1, 1}}
	check(t, "ReLUAddScaledSub", func(tp *Tape, p []*Var) *Var { return tp.ReLUAddScaledSub(p[0], p[1], p[2], nil, 0.8) },
		randAway(7, 5, 41, 0.5), small(42), small(43))
	check(t, "ReLUAddScaledSub masked", func(tp *Tape, p []*Var) *Var {
		return tp.ReLUAddScaledSub(p[0], p[1], p[2], mask, -1.7)
	}, randAway(7, 5, 44, 0.5), small(45), small(46))
}

// TestReLUAddScaledSubMatchesChain: the fused operation gives the bits of
// ReLU(Add(x, Scale(Mul(Sub(a, b), m), c))), values and every gradient, on
// inputs with exact zeros, negative zeros, ties a = b and outputs landing
// on zero, for either sign of c, with and without the mask, and with the
// gradients reaching x, a and b from other operations too.
func TestReLUAddScaledSubMatchesChain(t *testing.T) {
	rows, cols := 131, 9
	x, a, b, w := testkit.RandDense(rows, cols, 51), testkit.RandDense(rows, cols, 52), testkit.RandDense(rows, cols, 53), testkit.RandDense(rows, cols, 54)
	negZero := float32(math.Copysign(0, -1))
	for i := 0; i < len(a.Data); i += 5 {
		b.Data[i] = a.Data[i] // a − b = 0
	}
	for i := 1; i < len(x.Data); i += 7 {
		x.Data[i], a.Data[i], b.Data[i] = 0, negZero, 0
	}
	for i := 2; i < len(x.Data); i += 11 {
		x.Data[i] = -0.5 * (a.Data[i] - b.Data[i]) // x + 0.5(a − b) = 0 for c = 0.5
	}
	for i := 3; i < len(w.Data); i += 13 {
		w.Data[i] = negZero
	}
	mask := tensor.NewDense(rows, 1)
	for i := range mask.Data {
		mask.Data[i] = float32(i % 3 % 2)
	}
	for _, c := range []float32{0.5, -1.3, 0} {
		for _, m := range []*tensor.Dense{nil, mask} {
			t.Run(fmt.Sprintf("c=%g mask=%v", c, m != nil), func(t *testing.T) {
				run := func(fused bool) [][]float32 {
					tp := NewTape(tensor.Exec{Threads: 2})
					px, pa, pb := NewParam("x", x.Clone()), NewParam("a", a.Clone()), NewParam("b", b.Clone())
					// x, a and b also feed another operation, as ÂHW and HW do
					other := tp.Sum(tp.Mul(tp.Add(tp.Add(px, pa), pb), tp.Const(w)))
					var y *Var
					if fused {
						y = tp.ReLUAddScaledSub(px, pa, pb, m, c)
					} else {
						d := tp.Sub(pa, pb)
						if m != nil {
							d = tp.Mul(d, tp.Const(m))
						}
						y = tp.ReLU(tp.Add(px, tp.Scale(d, c)))
					}
					out := y.Value.Clone().Data
					tp.Backward(tp.Add(tp.Sum(tp.Mul(y, tp.Const(w))), other))
					return [][]float32{out, px.Grad.Data, pa.Grad.Data, pb.Grad.Data}
				}
				f, u := run(true), run(false)
				for k, name := range []string{"value", "∂x", "∂a", "∂b"} {
					for i := range f[k] {
						if math.Float32bits(f[k][i]) != math.Float32bits(u[k][i]) {
							t.Fatalf("%s[%d]: fused %v, chain %v", name, i, f[k][i], u[k][i])
						}
					}
				}
			})
		}
	}
}

// TestReLUAddScaledSubFreshGradients: when ReLUAddScaledSub's backward is
// the first to reach x, a and b (intermediate values, as PCGCN's ÂHW, HW and
// BPW are), it clears their rows itself instead of the tape's zeroing pass;
// the gradients must keep the bits of the same operation adding into
// buffers the tape zeroed (another operation's +0 gradient reaching x, a
// and b first), NaN payloads included, on recycled buffers
// holding NaNs or the previous step's numbers (two steps on one tape), for
// 1–3 goroutines, with x and a the same variable too, and with 64 columns
// and a row count that leaves a partial block of cleared rows.
func TestReLUAddScaledSubFreshGradients(t *testing.T) {
	for _, shape := range [][2]int{{131, 9}, {203, 64}} {
		rows, cols := shape[0], shape[1]
		x, a, b, w := testkit.RandDense(rows, cols, 61), testkit.RandDense(rows, cols, 62), testkit.RandDense(rows, cols, 63), testkit.RandDense(rows, cols, 64)
		negZero := float32(math.Copysign(0, -1))
		for i := 1; i < len(x.Data); i += 7 {
			x.Data[i], a.Data[i], b.Data[i] = 0, negZero, 0
		}
		for i := 3; i < len(w.Data); i += 13 {
			w.Data[i] = negZero
		}
		w.Data[5] = float32(math.NaN())
		mask := tensor.NewDense(rows, 1)
		for i := range mask.Data {
			mask.Data[i] = float32(i % 3 % 2)
		}
		for _, threads := range []int{1, 2, 3} {
			for _, m := range []*tensor.Dense{nil, mask} {
				for _, alias := range []bool{false, true} {
					name := fmt.Sprintf("%dx%d/threads=%d/mask=%v/x=a:%v", rows, cols, threads, m != nil, alias)
					t.Run(name, func(t *testing.T) {
						run := func(fresh bool) [][]float32 {
							tp := NewTape(tensor.Exec{Threads: threads})
							px, pa, pb := NewParam("x", x.Clone()), NewParam("a", a.Clone()), NewParam("b", b.Clone())
							// the tape's free buffers hold NaNs: a row left
							// uncleared shows in the gradients
							for range 16 {
								d := tp.Alloc(rows, cols)
								for i := range d.Data {
									d.Data[i] = float32(math.NaN())
								}
							}
							var out [][]float32
							for step := 0; step < 2; step++ {
								tp.Reset()
								for _, p := range []*Var{px, pa, pb} {
									p.ZeroGrad()
								}
								// intermediate inputs whose gradients start here
								vx, va, vb := tp.Scale(px, 1.5), tp.Scale(pa, -0.5), tp.Scale(pb, 2)
								if alias {
									va = vx
								}
								y := tp.ReLUAddScaledSub(vx, va, vb, m, 0.7)
								loss := tp.Sum(tp.Mul(y, tp.Const(w)))
								if !fresh {
									// +0 gradients reach x, a and b before y's
									// backward: their buffers are zeroed by the tape
									zero := tp.Sum(tp.Scale(tp.Add(tp.Add(vx, va), vb), 0))
									loss = tp.Add(loss, zero)
								}
								tp.Backward(loss)
								out = [][]float32{px.Grad.Clone().Data, pa.Grad.Clone().Data, pb.Grad.Clone().Data}
								w.Data[7] += 1 // the second step's gradients differ from the first's
							}
							w.Data[7] -= 2
							return out
						}
						f, u := run(true), run(false)
						for k, name := range []string{"∂x", "∂a", "∂b"} {
							for i := range f[k] {
								if math.Float32bits(f[k][i]) != math.Float32bits(u[k][i]) {
									t.Fatalf("%s[%d]: fresh %v (%#x), zeroed %v (%#x)", name, i, f[k][i], math.Float32bits(f[k][i]), u[k][i], math.Float32bits(u[k][i]))
								}
							}
						}
					})
				}
			}
		}
	}
}
