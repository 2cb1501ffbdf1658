package tensor

import (
	"fmt"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// TestGemmTransAPanelsBitForBit checks the transposed-left products that
// gemmPanelsTransA takes against gemmPanels (op(a) read in place, b's
// blocks 64 columns wide), bit for bit: row counts that leave a short last
// tile and tiles whose rows end within 16 floats of a's edge (packed one
// float at a time), inner lengths across and between gemmKC blocks, widths
// not a multiple of 16 and past one gemmTNCols block, a transposed b, beta
// 0 (over NaNs in c), 1 and 0.5, signed zeros, infinities, NaN payloads and
// subnormals in the operands, at 1 and 3 threads.
func TestGemmTransAPanelsBitForBit(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels: Gemm takes its portable loops")
	}
	r := newRand(54)
	cases := []struct {
		m, k, n int
		transB  bool
		special float64
	}{
		{100, 1300, 300, false, 0},
		{100, 1300, 300, false, 0.0005},
		{64, 700, 768, false, 0.0005},
		{60, 1100, 520, true, 0.0005},
	}
	for _, cs := range cases {
		a, b := randOperands(r, cs.m, cs.k, cs.n, true, cs.transB)
		for _, d := range []*Dense{a, b} {
			for i := range d.Data {
				if u := r.Float64(); u < cs.special {
					d.Data[i] = []float32{float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
						math.Float32frombits(0x7fc00123), math.Float32frombits(0xff800042), 1e-40}[r.IntN(6)]
				}
			}
		}
		kd := gemmKernel("test", true, cs.transB, 1, a, b, 0, NewDense(cs.m, cs.n))
		if !useTransAPanels(&kd, cs.m) {
			t.Fatalf("%d×%d·%d×%d: not a product of gemmPanelsTransA; the test checks nothing", cs.m, cs.k, cs.k, cs.n)
		}
		for _, beta := range []float32{0, 1, 0.5} {
			for _, alpha := range []float32{1, -0.75} {
				c0 := randDense(r, cs.m, cs.n)
				c0.Data[3] = math.Float32frombits(0x7fc00777)
				want := c0.Clone()
				pack := make([]float32, gemmKC*gemmNB)
				panels := (cs.m + simd.TileRows - 1) / simd.TileRows
				gemmPanels(0, panels, pack, true, cs.transB, alpha, a, b, beta, want, cs.m, cs.n, cs.k, nil)
				for _, threads := range []int{1, 3} {
					got := c0.Clone()
					Gemm(Exec{Threads: threads}, true, cs.transB, alpha, a, b, beta, got)
					name := fmt.Sprintf("%d×%d·%d×%d transB %v, alpha %v, beta %v, %d threads", cs.m, cs.k, cs.k, cs.n, cs.transB, alpha, beta, threads)
					if i := bitsEqual(got.Data, want.Data); i >= 0 {
						t.Fatalf("%s: element %d: %v (%#x), in place %v (%#x)", name, i, got.Data[i], math.Float32bits(got.Data[i]), want.Data[i], math.Float32bits(want.Data[i]))
					}
				}
			}
		}
	}
}
