package tensor

import (
	"fmt"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// TestGemmSplitKMatchesTilesBitForBit compares gemmSplitK with the vector
// tiles of gemmBlocked on long inner indices (a whole number of blocks and
// not, fewer and more blocks than a group), c shapes around the tile sizes,
// every transposition, several alpha and beta, dense and ReLU-sparse a, and
// 2 or 3 goroutines with and without Workers: the bits must be the same (see
// gemm_splitk.go).
func TestGemmSplitKMatchesTilesBitForBit(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels: Gemm never splits the inner index")
	}
	r := newRand(17)
	w := NewWorkers(2)
	defer w.Close()
	for _, sh := range [][3]int{{5, 3 * gemmKC, 64}, {13, splitKGroup*gemmKC + 77, 7}, {64, 70 * gemmKC, 5}, {1, 2*splitKGroup*gemmKC + 1, 17}} {
		m, k, n := sh[0], sh[1], sh[2]
		for _, tr := range [][2]bool{{true, false}, {false, false}, {true, true}, {false, true}} {
			transA, transB := tr[0], tr[1]
			a, b := randOperands(r, m, k, n, transA, transB)
			sparsify(a, 0.3, 5)
			for _, ab := range [][2]float32{{1, 0}, {-0.5, 1}, {2, 0.3}} {
				alpha, beta := ab[0], ab[1]
				c0 := randDense(r, m, n)
				want := c0.Clone()
				kd := kernel{transA: transA, transB: transB, alpha: alpha, a: a, b: b, beta: beta, c: want, m: m, n: n, k: k}
				gemmPanelRange(&kd, 0, (m+simd.TileRows-1)/simd.TileRows)
				for _, e := range []Exec{{Threads: 2}, {Threads: 3, Workers: w}} {
					name := fmt.Sprintf("%dx%dx%d_tA%v_tB%v_alpha%v_beta%v_threads%d", m, k, n, transA, transB, alpha, beta, e.Threads)
					t.Run(name, func(t *testing.T) {
						got := c0.Clone()
						kd := kd
						kd.c = got
						gemmSplitK(e, kd)
						for i := range want.Data {
							if math.Float32bits(got.Data[i]) != math.Float32bits(want.Data[i]) {
								t.Fatalf("element %d: split %v, tiles %v", i, got.Data[i], want.Data[i])
							}
						}
					})
				}
			}
		}
	}
}

// TestGemmTakesSplitK checks that Gemm routes a weight gradient over a long
// inner index to gemmSplitK and keeps short or wide products on the tiles.
func TestGemmTakesSplitK(t *testing.T) {
	e := Exec{Threads: 2}
	for _, c := range []struct {
		m, n, k int
		want    bool
	}{
		{64, 64, 1_000_000, true},
		{5, 64, splitKMinK, true},
		{64, 64, splitKMinK - 1, false},
		{512, 512, 1_000_000, false},
	} {
		kd := kernel{transA: true, m: c.m, n: c.n, k: c.k}
		if got := useSplitK(e, &kd); got != (c.want && simd.Enabled()) {
			t.Errorf("%d×%d over %d: split-K %v, want %v", c.m, c.n, c.k, got, c.want && simd.Enabled())
		}
	}
	if kd := (kernel{m: 64, n: 64, k: 1_000_000}); useSplitK(Serial, &kd) {
		t.Error("one thread: split-K taken, want the tiles (they pack op(b) once)")
	}
}

// TestGemmSplitKShort: a weight gradient over a few thousand rows (too few
// row panels of c to share, an inner index of 8 to 63 blocks) splits its
// inner index when Gemm has Workers and their partial buffer is free, and
// takes the row panels otherwise; both give the tiles' bits, at 2 and 3
// threads, for transposed and plain operands, beta 0 and 1.
func TestGemmSplitKShort(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels: Gemm never splits the inner index")
	}
	for _, c := range []struct {
		m, n, k int
		want    bool
	}{
		{64, 64, 7600, true},
		{5, 64, splitKShortMinK, true},
		{64, 64, splitKShortMinK - 1, false},
		{6 * gemmMinPanels, 64, 7600, false}, // enough row panels to share
	} {
		kd := kernel{transA: true, m: c.m, n: c.n, k: c.k}
		w := NewWorkers(2)
		if got := useSplitKShort(Exec{Threads: 2, Workers: w}, &kd); got != c.want {
			t.Errorf("%d×%d over %d: short split-K %v, want %v", c.m, c.n, c.k, got, c.want)
		}
		if useSplitKShort(Exec{Threads: 2}, &kd) {
			t.Errorf("%d×%d over %d: short split-K without Workers", c.m, c.n, c.k)
		}
		w.Close()
	}
	r := newRand(23)
	for _, threads := range []int{2, 3} {
		w := NewWorkers(threads - 1)
		e := Exec{Threads: threads, Workers: w}
		for _, sh := range [][3]int{{64, 9*gemmKC + 13, 64}, {5, 30 * gemmKC, 64}, {64, 7600, 5}} {
			m, k, n := sh[0], sh[1], sh[2]
			for _, tr := range [][2]bool{{true, false}, {false, false}} {
				a, b := randOperands(r, m, k, n, tr[0], tr[1])
				for _, beta := range []float32{0, 1} {
					c0 := randDense(r, m, n)
					want := c0.Clone()
					kd := kernel{transA: tr[0], transB: tr[1], alpha: 1, a: a, b: b, beta: beta, c: want, m: m, n: n, k: k}
					gemmPanelRange(&kd, 0, (m+simd.TileRows-1)/simd.TileRows)
					for _, busy := range []bool{false, true} {
						got := c0.Clone()
						if busy { // another product holds the partial buffer
							w.scratchMu.Lock()
						}
						Gemm(e, tr[0], tr[1], 1, a, b, beta, got)
						if busy {
							w.scratchMu.Unlock()
						}
						for i := range want.Data {
							if math.Float32bits(got.Data[i]) != math.Float32bits(want.Data[i]) {
								t.Fatalf("%dx%dx%d threads %d busy %v: element %d: Gemm %v, tiles %v", m, k, n, threads, busy, i, got.Data[i], want.Data[i])
							}
						}
					}
				}
			}
		}
		w.Close()
	}
}

// BenchmarkWeightGradientSplit is an Actor layer's weight gradient H̄ᵀ·∂
// (64×64 over 7,600 nodes) at two threads with Workers, through the row
// panels of gemmBlocked (11 panels: one piece, one goroutine) and through
// the split inner index (30 blocks dealt to both), side by side.
func BenchmarkWeightGradientSplit(b *testing.B) {
	r := newRand(3)
	h, g, c := randDense(r, 7600, 64), randDense(r, 7600, 64), NewDense(64, 64)
	e, stop := StartExec(2)
	defer stop()
	kd := kernel{transA: true, alpha: 1, a: h, b: g, beta: 0, c: c, m: 64, n: 64, k: 7600}
	b.Run("panels", func(b *testing.B) {
		for b.Loop() {
			gemmBlocked(e, kd)
		}
	})
	b.Run("splitK", func(b *testing.B) {
		for b.Loop() {
			gemmSplitKShort(e, kd)
		}
	})
}
