package autograd

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// TestFirstGradientSkipsZeroingWithSameBits: the backward steps of MatMul,
// MatMulNT and SpMM that write a variable's first gradient (beta 0 into a
// buffer left unzeroed, here one a previous step filled with NaNs) give the
// bits of adding to a zeroed gradient (beta 1), which is what they did
// before gradFor; the variable's later contributions still add up.
func TestFirstGradientSkipsZeroingWithSameBits(t *testing.T) {
	x0 := testkit.RandDense(40, 12, 71)
	w0, p0 := testkit.RandDense(12, 9, 72), testkit.RandDense(5, 12, 73)
	a := testkit.RandCSR(40, 40, 0.2, 74)
	run := func(tp *Tape, prezero bool) []float32 {
		x, w, p := NewParam("x", x0.Clone()), NewParam("w", w0.Clone()), NewParam("p", p0.Clone())
		h := tp.Tanh(x) // h's gradient: first from SpMM's or a MatMul's backward
		y := tp.Add(tp.Sum(tp.Tanh(tp.SpMM(a, tp.MatMul(h, w)))), tp.Sum(tp.Tanh(tp.MatMulNT(h, p))))
		if prezero {
			tp.grad(h) // a zeroed gradient: the backward steps add with beta 1
		}
		tp.Backward(y)
		out := append([]float32(nil), x.Grad.Data...)
		out = append(out, w.Grad.Data...)
		return append(out, p.Grad.Data...)
	}
	want := run(NewTape(tensor.Exec{Threads: 1}), true)
	for _, threads := range []int{1, 3} {
		tp := NewTape(tensor.Exec{Threads: threads})
		run(tp, false)
		for _, d := range tp.used { // the next step's buffers hold NaNs
			for i := range d.Data {
				d.Data[i] = float32(math.NaN())
			}
		}
		tp.Reset()
		got := run(tp, false)
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("threads %d: gradient element %d is %v, with a zeroed gradient %v", threads, i, got[i], want[i])
			}
		}
	}
}
