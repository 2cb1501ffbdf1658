package autograd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// TestMatMulAddRowMatchesMatMulThenAdd checks MatMulAddRow against MatMul
// followed by Add, bit for bit: the output and the gradients of a, w and
// the bias, on shapes that take each of Gemm's paths (the cache-blocked
// tiles with one and several column blocks and inner blocks, small k, a
// split inner dimension, a sparse left operand) at 1 to 3 threads, with NaN
// payloads, infinities and ±0 in the bias, and in evaluation mode.
func TestMatMulAddRowMatchesMatMulThenAdd(t *testing.T) {
	r := rand.New(rand.NewPCG(75, 76))
	shapes := [][3]int{ // m, k, n
		{130, 64, 64},  // tiles, one column block
		{97, 300, 130}, // tiles, two inner blocks, three column blocks
		{200, 5, 64},   // small k
		{12, 3000, 16}, // few rows, a long inner dimension
		{300, 40, 9},   // narrow output
		{1, 7, 3},
	}
	for _, sh := range shapes {
		m, k, n := sh[0], sh[1], sh[2]
		for _, threads := range []int{1, 2, 3} {
			for _, sparse := range []bool{false, true} {
				name := fmt.Sprintf("%d×%d·%d×%d, %d threads, sparse %v", m, k, k, n, threads, sparse)
				x := testkit.RandDense(m, k, uint64(m*k+threads))
				if sparse { // most rows zero: Gemm's sparse-left path
					for i := range m {
						if i%5 != 0 {
							clear(x.Data[i*k : (i+1)*k])
						}
					}
				}
				wv := testkit.RandDense(k, n, uint64(k*n+1))
				bv := tensor.NewDense(1, n)
				fillSpecialOr(r, bv.Data, 4)
				up := testkit.RandDense(m, n, uint64(m*n+2))

				run := func(fused bool) (out, ga, gw, gb []float32) {
					tp := NewTape(tensor.Exec{Threads: threads})
					a, w, b := NewParam("a", x.Clone()), NewParam("w", wv.Clone()), NewParam("b", bv.Clone())
					var o *Var
					if fused {
						o = tp.MatMulAddRow(a, w, b)
					} else {
						o = tp.Add(tp.MatMul(a, w), b)
					}
					out = o.Value.Clone().Data
					tp.Backward(tp.Sum(tp.Mul(o, tp.Const(up))))
					return out, a.Grad.Data, w.Grad.Data, b.Grad.Data
				}
				fo, fa, fw, fb := run(true)
				uo, ua, uw, ub := run(false)
				for _, c := range []struct {
					what     string
					got, ref []float32
				}{{"output", fo, uo}, {"∂a", fa, ua}, {"∂w", fw, uw}, {"∂bias", fb, ub}} {
					for i := range c.ref {
						if math.Float32bits(c.got[i]) != math.Float32bits(c.ref[i]) {
							t.Fatalf("%s: %s[%d]: fused %g (%#x), MatMul then Add %g (%#x)", name, c.what, i,
								c.got[i], math.Float32bits(c.got[i]), c.ref[i], math.Float32bits(c.ref[i]))
						}
					}
				}
			}
		}
		// evaluation mode: nothing recorded, the same values
		tp := NewTape(tensor.Serial)
		tp.SetNoGrad(true)
		x, wv := NewParam("a", testkit.RandDense(m, k, 1)), NewParam("w", testkit.RandDense(k, n, 2))
		bv := NewParam("b", testkit.RandDense(1, n, 3))
		got := tp.MatMulAddRow(x, wv, bv).Value.Data
		want := tp.Add(tp.MatMul(x, wv), bv).Value.Data
		if i := bitsDiffer(got, want); i >= 0 {
			t.Fatalf("%d×%d·%d×%d, evaluation: %d: fused %g, MatMul then Add %g", m, k, k, n, i, got[i], want[i])
		}
	}
}

// TestMatMulAddRowAllocatesNothing checks that a steady-state step with
// MatMulAddRow (forward and backward, after a first step and Reset)
// allocates nothing.
func TestMatMulAddRowAllocatesNothing(t *testing.T) {
	tp := NewTape(tensor.Serial)
	a, w, b := NewParam("a", testkit.RandDense(130, 64, 1)), NewParam("w", testkit.RandDense(64, 64, 2)), NewParam("b", testkit.RandDense(1, 64, 3))
	step := func() {
		tp.Reset()
		a.Grad, w.Grad, b.Grad = nil, nil, nil
		tp.Backward(tp.Sum(tp.MatMulAddRow(a, w, b)))
	}
	step()
	if n := testing.AllocsPerRun(5, step); n != 0 {
		t.Fatalf("a step allocates %v times", n)
	}
}
