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
