package autograd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// specialDense returns a rows×cols matrix of which about a fifth of the
// elements are ±0, NaNs with different payloads, infinities or values whose
// products underflow, the rest uniform in [-1, 1).
func specialDense(r *rand.Rand, rows, cols int) *tensor.Dense {
	d := tensor.NewDense(rows, cols)
	for i := range d.Data {
		switch r.IntN(20) {
		case 0:
			d.Data[i] = float32(math.Copysign(0, -1))
		case 1:
			d.Data[i] = math.Float32frombits(0x7fc00000 | uint32(r.IntN(1<<22)))
		case 2:
			d.Data[i] = float32(math.Inf(1 - 2*r.IntN(2)))
		case 3:
			d.Data[i] = 1e-30 * float32(1-2*r.IntN(2))
		default:
			d.Data[i] = r.Float32()*2 - 1
		}
	}
	return d
}

// bitsDiffer returns the first index where a and b differ in their bits, or
// −1; under -race two NaNs match whatever their payloads (see raceBuild).
func bitsDiffer(a, b []float32) int {
	for i := range a {
		if raceBuild && a[i] != a[i] && b[i] != b[i] {
			continue
		}
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return i
		}
	}
	return -1
}

// TestSpMMEdgesHeadsAllHeadsMatchEach compares SpMMEdgesHeads' all-heads
// vector kernels (heads of 8 columns) with its head-by-head loops, bit for
// bit: the output, ∂alpha and ∂z added into gradients that already hold
// values, on 1–9 heads, patterns with empty rows and columns, NaNs, ±0,
// infinities and underflowing products among the inputs, and the rows
// split among 1–3 goroutines.
func TestSpMMEdgesHeadsAllHeadsMatchEach(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels in this build")
	}
	r := rand.New(rand.NewPCG(37, 42))
	for _, h := range []int{1, 2, 3, 5, 8, 9} {
		for _, threads := range []int{1, 2, 3} {
			t.Run(fmt.Sprintf("h%d/threads%d", h, threads), func(t *testing.T) {
				const rows, cols = 97, 83
				w := 8 * h
				pat := testkit.RandCSR(rows, cols, 0.04, uint64(h*10+threads))
				tp := NewTape(tensor.Exec{Threads: threads})
				alpha := NewParam("alpha", specialDense(r, pat.NNZ(), h))
				z := NewParam("z", specialDense(r, cols, w))
				y := tp.SpMMEdgesHeads(pat, alpha, z)
				got := y.Value.Clone().Data
				spmmHeadsRowsEach(y, 0, rows)
				if i := bitsDiffer(got, y.Value.Data); i >= 0 {
					t.Fatalf("output %d: all heads %v, each head %v", i, got[i], y.Value.Data[i])
				}

				y.Grad = specialDense(r, rows, w)
				y.col = tp.columns(pat)
				ga0, gz0 := specialDense(r, pat.NNZ(), h), specialDense(r, cols, w)
				alpha.Grad, z.Grad = ga0.Clone(), gz0.Clone()
				tp.Exec.ForBalancedArg(pat.RowPtr, w, y, spmmHeadsBackAlpha)
				tp.Exec.ForBalancedArg(y.col.ptr, w, y, spmmHeadsBackZ)
				gotA, gotZ := alpha.Grad.Data, z.Grad.Data
				alpha.Grad, z.Grad = ga0.Clone(), gz0.Clone()
				var buf [256]float32
				spmmHeadsBackAlphaEach(y, 0, rows, buf[:])
				spmmHeadsBackZEach(y, 0, cols)
				if i := bitsDiffer(gotA, alpha.Grad.Data); i >= 0 {
					t.Fatalf("∂alpha %d: all heads %v, each head %v", i, gotA[i], alpha.Grad.Data[i])
				}
				if i := bitsDiffer(gotZ, z.Grad.Data); i >= 0 {
					t.Fatalf("∂z %d: all heads %v, each head %v", i, gotZ[i], z.Grad.Data[i])
				}
			})
		}
	}
}

// BenchmarkSpMMEdgesHeadsStep is one forward and backward pass of GAT's
// aggregation at Squirrel's size (5,201 nodes, about 76 entries a row, 8
// heads of 8), one thread.
func BenchmarkSpMMEdgesHeadsStep(b *testing.B) {
	pat := testkit.RandCSR(5201, 5201, 76.0/5201, 1)
	alpha, z, w := testkit.RandDense(pat.NNZ(), 8, 2), testkit.RandDense(5201, 64, 3), testkit.RandDense(5201, 64, 4)
	pa, pz := NewParam("alpha", alpha), NewParam("z", z)
	tp := NewTape(tensor.Exec{Threads: 1})
	for b.Loop() {
		tp.Reset()
		pa.Grad, pz.Grad = nil, nil
		y := tp.SpMMEdgesHeads(pat, pa, pz)
		tp.Backward(tp.Sum(tp.Mul(y, tp.Const(w))))
	}
}
