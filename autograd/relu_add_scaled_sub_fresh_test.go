package autograd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// TestReLUAddScaledSubFreshKernelMatchesCleared: the backward's vector path
// writes the fresh gradients (o.i0) itself, onto +0, without reading them:
// on NaN-filled buffers it gives the bits of the Go loop adding into
// buffers cleared first, for every subset of fresh gradients among those
// needing one, with and without the mask, x = a (written, then added
// into), rows split as a parallel loop splits them, on values with zeros of
// both signs, subnormals, infinities and NaN payloads.
func TestReLUAddScaledSubFreshKernelMatchesCleared(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels here: the Go loop clears the rows itself")
	}
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	specials := []float32{0, float32(math.Copysign(0, -1)), 1e-40, -1e-40, inf, -inf, nan,
		math.Float32frombits(0xffc00001), math.Float32frombits(0x7f800003), 3e38, -3e38}
	r := rand.New(rand.NewPCG(46, 5))
	fill := func(d *tensor.Dense) {
		for i := range d.Data {
			if r.IntN(6) == 0 {
				d.Data[i] = specials[r.IntN(len(specials))]
			} else {
				d.Data[i] = 2*r.Float32() - 1
			}
		}
	}
	for _, cols := range []int{1, 5, 8, 13, 16, 64} {
		for _, masked := range []bool{false, true} {
			for which := range 8 {
				for fresh := range 8 {
					if fresh&^which != 0 {
						continue
					}
					for _, alias := range []bool{false, true} {
						if alias && (which&3 != 3 || fresh&2 != 0) {
							continue // one Var: both need a gradient, and only x's is first (gradFor)
						}
						name := fmt.Sprintf("cols=%d/mask=%v/grads=%03b/fresh=%03b/x=a:%v", cols, masked, which, fresh, alias)
						t.Run(name, func(t *testing.T) {
							rows := 9
							mk := func() *tensor.Dense { d := tensor.NewDense(rows, cols); fill(d); return d }
							x, a, b, gy, gx, ga, gb, out := mk(), mk(), mk(), mk(), mk(), mk(), mk(), mk()
							var m *tensor.Dense
							if masked {
								m = mk()
								m.Cols = 1
								m.Data = m.Data[:rows]
								m.Data[0], m.Data[1] = 0, 1
							}
							c := float32(0.37)
							build := func(first float32) *Var {
								vx, va, vb := &Var{Value: x.Clone(), Grad: gx.Clone()}, &Var{Value: a.Clone(), Grad: ga.Clone()}, &Var{Value: b.Clone(), Grad: gb.Clone()}
								vx.requiresGrad, va.requiresGrad, vb.requiresGrad = which&1 != 0, which&2 != 0, which&4 != 0
								if alias {
									va = vx
								}
								for i, v := range []*Var{vx, va, vb} {
									if fresh&(1<<i) != 0 {
										for k := range v.Grad.Data {
											v.Grad.Data[k] = first
										}
									}
								}
								return &Var{Value: out.Clone(), Grad: gy.Clone(), xs: []*Var{vx}, in: [2]*Var{va, vb}, aux: m, p: c, i0: fresh}
							}
							want, got := build(0), build(nan)
							reluAddScaledSubBackwardGo(want, 0, rows)
							reluAddScaledSubBackward(got, 0, 4)
							reluAddScaledSubBackward(got, 4, rows)
							for k, name := range []string{"x", "a", "b"} {
								gv, wv := got.xs[0], want.xs[0]
								if k > 0 {
									gv, wv = got.in[k-1], want.in[k-1]
								}
								same(t, "∂"+name, gv.Grad.Data, wv.Grad.Data)
							}
						})
					}
				}
			}
		}
	}
}
