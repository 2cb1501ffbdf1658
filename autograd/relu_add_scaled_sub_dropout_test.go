package autograd

import (
	"fmt"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// TestReLUAddScaledSubDropoutMatchesChain: the fused update and dropout give
// the bits of ReLUAddScaledSub then Dropout on a tape with the same RNG —
// the dropped-out output, the update before dropout and every gradient —
// for first and added gradients, with and without the mask column, x = a,
// element counts that are and are not multiples of dropout's blocks of
// sixteen (and fewer than sixteen), rows longer and shorter than a span,
// over two steps on tapes whose recycled buffers hold NaNs, at 1–3 threads;
// with special values (NaN, ±0, ±Inf, subnormals) in the inputs and in
// ∂out.
func TestReLUAddScaledSubDropoutMatchesChain(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	specials := []float32{float32(math.NaN()), negZero, 0, float32(math.Inf(1)), float32(math.Inf(-1)), 1e-40, -1e-40,
		math.Float32frombits(0xffc00007)}
	for _, shape := range [][2]int{{131, 9}, {203, 64}, {37, 5}, {1, 3}, {3, 2500}} {
		rows, cols := shape[0], shape[1]
		x, a, b, w := testkit.RandDense(rows, cols, 71), testkit.RandDense(rows, cols, 72), testkit.RandDense(rows, cols, 73), testkit.RandDense(rows, cols, 74)
		for i := 0; i < len(x.Data); i += 11 {
			x.Data[i] = specials[(i/11)%len(specials)]
			a.Data[(i+3)%len(a.Data)] = specials[(i/11+1)%len(specials)]
			b.Data[(i+5)%len(b.Data)] = specials[(i/11+2)%len(specials)]
			w.Data[(i+7)%len(w.Data)] = specials[(i/11+3)%len(specials)]
		}
		mask := tensor.NewDense(rows, 1)
		for i := range mask.Data {
			mask.Data[i] = []float32{1, 0, 0.5, negZero}[i%4]
		}
		for _, threads := range []int{1, 2, 3} {
			for _, m := range []*tensor.Dense{nil, mask} {
				for _, alias := range []bool{false, true} {
					for _, first := range []bool{true, false} {
						name := fmt.Sprintf("%dx%d/threads=%d/mask=%v/x=a:%v/first=%v", rows, cols, threads, m != nil, alias, first)
						t.Run(name, func(t *testing.T) {
							run := func(fused bool) [][]float32 {
								tp := NewTape(tensor.Exec{Threads: threads})
								tp.Training, tp.RNG = true, rng.New(46)
								px, pa, pb := NewParam("x", x.Clone()), NewParam("a", a.Clone()), NewParam("b", b.Clone())
								for range 16 { // recycled buffers full of NaNs: a gradient not written shows
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
									vx, va, vb := tp.Scale(px, 1.5), tp.Scale(pa, -0.5), tp.Scale(pb, 2)
									if alias {
										va = vx
									}
									var y, h *Var
									if fused {
										y, h = tp.ReLUAddScaledSubDropout(vx, va, vb, m, -0.7, 0.3)
									} else {
										h = tp.ReLUAddScaledSub(vx, va, vb, m, -0.7)
										y = tp.Dropout(h, 0.3)
									}
									loss := tp.Sum(tp.Mul(y, tp.Const(w)))
									if !first {
										// gradients reach x, a and b before the update's
										zero := tp.Sum(tp.Scale(tp.Add(tp.Add(vx, va), vb), 0.25))
										loss = tp.Add(loss, zero)
									}
									tp.Backward(loss)
									out = append(out, y.Value.Clone().Data, h.Value.Clone().Data,
										px.Grad.Clone().Data, pa.Grad.Clone().Data, pb.Grad.Clone().Data)
									w.Data[0] += 1 // the second step's gradients differ from the first's
								}
								w.Data[0] -= 2
								return out
							}
							f, u := run(true), run(false)
							names := []string{"out", "h", "∂x", "∂a", "∂b"}
							for k := range f {
								for i := range f[k] {
									if math.Float32bits(f[k][i]) != math.Float32bits(u[k][i]) && !(raceBuild && isNaN32(f[k][i]) && isNaN32(u[k][i])) {
										t.Fatalf("step %d %s[%d]: fused %v (%#x), chain %v (%#x)", k/5, names[k%5], i, f[k][i], math.Float32bits(f[k][i]), u[k][i], math.Float32bits(u[k][i]))
									}
								}
							}
						})
					}
				}
			}
		}
	}
}

// TestReLUAddScaledSubDropoutUnfused: outside training (or with p = 0) the
// operation is ReLUAddScaledSub and out is h, as Dropout leaves it.
func TestReLUAddScaledSubDropoutUnfused(t *testing.T) {
	x, a, b := testkit.RandDense(20, 7, 1), testkit.RandDense(20, 7, 2), testkit.RandDense(20, 7, 3)
	for _, train := range []bool{false, true} {
		tp := NewTape(tensor.Serial)
		tp.Training, tp.RNG = train, rng.New(1)
		p := 0.5
		if train {
			p = 0
		}
		out, h := tp.ReLUAddScaledSubDropout(NewParam("x", x), NewParam("a", a), NewParam("b", b), nil, 2, p)
		if out != h {
			t.Fatalf("training %v, p %g: out is not h", train, p)
		}
		want := tp.ReLUAddScaledSub(NewParam("x", x), NewParam("a", a), NewParam("b", b), nil, 2)
		if !testkit.EqualDense(h.Value, want.Value) {
			t.Fatalf("training %v, p %g: h is not ReLUAddScaledSub's output", train, p)
		}
	}
}
