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
// subnormals in the operands; called directly, and through Gemm with a
// Scratch at 1 and 3 threads and with parked Workers (the panels, in pieces
// where the product has enough rows), and with the Scratch busy
// (gemmPanels).
func TestGemmTransAPanelsBitForBit(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels: Gemm takes its portable loops")
	}
	workers, stop := StartExec(2)
	defer stop()
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
		{400, 600, 160, false, 0.0005}, // 67 row panels: two or three pieces in parallel
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
				// the panels themselves, then Gemm serial with a Scratch
				// (which takes them), busy Scratch and 3 threads (which
				// do not)
				direct := c0.Clone()
				kd := gemmKernel("test", true, cs.transB, alpha, a, b, beta, direct)
				gemmPanelsTransA(0, panels, make([]float32, gemmKC*gemmTNCols), make([]float32, gemmKC*simd.TileCols), &kd)
				if i := bitsEqual(direct.Data, want.Data); i >= 0 {
					t.Fatalf("%d×%d·%d×%d transB %v, alpha %v, beta %v: gemmPanelsTransA element %d: %v (%#x), in place %v (%#x)", cs.m, cs.k, cs.k, cs.n, cs.transB, alpha, beta,
						i, direct.Data[i], math.Float32bits(direct.Data[i]), want.Data[i], math.Float32bits(want.Data[i]))
				}
				busy := &Scratch{}
				busy.Take(1)
				for _, e := range []Exec{{Threads: 1, Scratch: &Scratch{}}, {Threads: 1, Scratch: busy}, {Threads: 3, Scratch: &Scratch{}}, workers, {Threads: 3, Scratch: busy}} {
					threads := e.Threads
					got := c0.Clone()
					Gemm(e, true, cs.transB, alpha, a, b, beta, got)
					name := fmt.Sprintf("%d×%d·%d×%d transB %v, alpha %v, beta %v, %d threads", cs.m, cs.k, cs.k, cs.n, cs.transB, alpha, beta, threads)
					if i := bitsEqual(got.Data, want.Data); i >= 0 {
						t.Fatalf("%s: element %d: %v (%#x), in place %v (%#x)", name, i, got.Data[i], math.Float32bits(got.Data[i]), want.Data[i], math.Float32bits(want.Data[i]))
					}
				}
			}
		}
	}
}

// TestGemmTransAPanelsAllocateNothing: gemmPanelsTransA's buffers are the
// Exec's Scratch, grown once (on a goroutine's stack Go would put their
// 528 KiB on the heap every product).
func TestGemmTransAPanelsAllocateNothing(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels: Gemm takes its portable loops")
	}
	a, b := randOperands(newRand(55), 128, 2048, 128, true, false)
	c := NewDense(128, 128)
	kd := gemmKernel("test", true, false, 1, a, b, 0, c)
	if !useTransAPanels(&kd, 128) {
		t.Fatal("128×2048·2048×128 is not a product of gemmPanelsTransA; the test checks nothing")
	}
	e := Exec{Threads: 1, Scratch: &Scratch{}}
	if n := testing.AllocsPerRun(3, func() { Gemm(e, true, false, 1, a, b, 0, c) }); n != 0 {
		t.Errorf("%v allocations a product, want none", n)
	}
	if cap(e.Scratch.buf) < gemmTransAFloats {
		t.Errorf("the Scratch holds %d floats: Gemm did not run gemmPanelsTransA in it", cap(e.Scratch.buf))
	}
	// in parallel, on parked Workers: two pieces, each its own share
	a2, b2 := randOperands(newRand(56), 400, 1024, 128, true, false)
	c2 := NewDense(400, 128)
	pe, stop := StartExec(2)
	defer stop()
	if n := testing.AllocsPerRun(3, func() { Gemm(pe, true, false, 1, a2, b2, 0, c2) }); n != 0 {
		t.Errorf("in parallel: %v allocations a product, want none", n)
	}
	if cap(pe.Scratch.buf) < 2*gemmTransAFloats {
		t.Errorf("in parallel, the Scratch holds %d floats: Gemm did not run two pieces of gemmPanelsTransA", cap(pe.Scratch.buf))
	}
}
