package tensor

import (
	"fmt"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// sparsify zeroes entries of x with probability 1-density, writing −0 for a
// few of them, as ReLU and dropout leave a hidden layer's input.
func sparsify(x *Dense, density float64, seed uint64) {
	r := newRand(seed)
	for i := range x.Data {
		if r.Float64() >= density {
			x.Data[i] = 0
			if r.IntN(7) == 0 {
				x.Data[i] = float32(math.Copysign(0, -1))
			}
		}
	}
}

// TestGemmSparseLeftMatchesTilesBitForBit compares the sparse-left path with
// the vector tiles on shapes around the tile and block sizes, at several
// densities, both orientations of a, several alpha and beta, and 1 or 3
// goroutines: the bits must be the same (see gemm_sparse.go).
func TestGemmSparseLeftMatchesTilesBitForBit(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels: Gemm never takes the sparse-left path")
	}
	r := newRand(11)
	shapes := [][3]int{{1, 1, 32}, {7, 300, 33}, {13, 256, 64}, {6, 513, 40}, {50, 17, 100}, {31, 600, 48}}
	for _, sh := range shapes {
		m, k, n := sh[0], sh[1], sh[2]
		for _, density := range []float64{0, 0.02, 0.2, 0.6} {
			for _, transA := range []bool{false, true} {
				for _, ab := range [][2]float32{{1, 0}, {-0.5, 1}, {2, 0.3}} {
					alpha, beta := ab[0], ab[1]
					a := randDense(r, m, k)
					if transA {
						a = randDense(r, k, m)
					}
					sparsify(a, density, uint64(m*k+n))
					b := randDense(r, k, n)
					c0 := randDense(r, m, n)
					c0.Data[0] = float32(math.Copysign(0, -1))
					kd := kernel{transA: transA, alpha: alpha, a: a, b: b, beta: beta, m: m, n: n, k: k}
					want := c0.Clone()
					kd.c = want
					gemmBlocked(Exec{Threads: 1}, kd)
					for _, threads := range []int{1, 3} {
						got := c0.Clone()
						kd.c = got
						gemmSparseA(Exec{Threads: threads}, kd)
						if i := bitsEqual(got.Data, want.Data); i >= 0 {
							t.Fatalf("m=%d k=%d n=%d density %g transA %v alpha %g beta %g threads %d: element %d is %v (bits %#x), the tiles give %v (bits %#x)",
								m, k, n, density, transA, alpha, beta, threads, i, got.Data[i], math.Float32bits(got.Data[i]), want.Data[i], math.Float32bits(want.Data[i]))
						}
					}
				}
			}
		}
	}
}

func TestGemmTakesSparseLeftPathOnlyWhenSparse(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels")
	}
	r := newRand(3)
	a, b := randDense(r, 20, 40), randDense(r, 40, 64)
	kd := kernel{a: a, b: b, m: 20, n: 64, k: 40}
	if sparseLeft(&kd) {
		t.Error("a dense a took the sparse path")
	}
	sparsify(a, 0.1, 1)
	if !sparseLeft(&kd) {
		t.Error("a sparse a did not take the sparse path")
	}
	kd.transB = true
	if sparseLeft(&kd) {
		t.Error("a transposed b took the sparse path")
	}
	kd.transB, kd.n = false, gemmSparseMinCols-1
	if sparseLeft(&kd) {
		t.Error("a narrow c took the sparse path")
	}
}

// BenchmarkGemmSparseLeft times the products of a PCGCN hidden layer on Cora
// (2708 nodes, 512 units, dropout 0.8 after ReLU: about 10% non-zeros) by
// the tiles and by the sparse-left path.
func BenchmarkGemmSparseLeft(b *testing.B) {
	if !simd.Enabled() {
		b.Skip("no vector kernels")
	}
	r := newRand(5)
	const m, k, n = 2708, 512, 512
	for _, density := range []float64{0.1, 0.15, 0.2, 0.25, 0.3} {
		a := randDense(r, m, k)
		sparsify(a, density, 9)
		w, g := randDense(r, k, n), randDense(r, m, n)
		for _, tc := range []struct {
			name   string
			transA bool
			b      *Dense
			c      *Dense
			mm, kk int
		}{{"a·w", false, w, NewDense(m, n), m, k}, {"aᵀ·g", true, g, NewDense(k, n), k, m}} {
			kd := kernel{transA: tc.transA, alpha: 1, a: a, b: tc.b, c: tc.c, m: tc.mm, n: n, k: tc.kk}
			b.Run(fmt.Sprintf("%s/density=%.2f/tiles", tc.name, density), func(b *testing.B) {
				for b.Loop() {
					gemmBlocked(Exec{Threads: 1}, kd)
				}
			})
			b.Run(fmt.Sprintf("%s/density=%.2f/sparse", tc.name, density), func(b *testing.B) {
				for b.Loop() {
					gemmSparseA(Exec{Threads: 1}, kd)
				}
			})
		}
	}
}

// nonZero is 1 when v is not ±0, else 0, without a branch: the scalar scan
// the sparse-left products made before simd.NonZeroRows, kept as the
// reference of gatherNonZeros and of the transposed gather.
func nonZero(v float32) int {
	u := math.Float32bits(v) << 1 // drop the sign
	return int((u | -u) >> 31)
}

// TestGatherNonZerosMatchesScalarScan compares the masked gather with the
// scalar scan it replaced (every element kept for which nonZero is 1, in
// order) on every length up to gemmKC, with both zeros, NaNs, infinities and
// subnormals among the values.
func TestGatherNonZerosMatchesScalarScan(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels: Gemm never takes the sparse-left path")
	}
	vals := []float32{0, 0, 0, float32(math.Copysign(0, -1)), math.SmallestNonzeroFloat32, float32(math.Inf(1)), float32(math.NaN()), 1.5, -3}
	r := newRand(5)
	var nz nonZeroScratch
	for j := range nz.iota {
		nz.iota[j] = int32(j)
	}
	var wantIdx [gemmKC]int32
	var wantVal [gemmKC]float32
	for n := 0; n <= gemmKC; n++ {
		x := make([]float32, n)
		for i := range x {
			x[i] = vals[r.IntN(len(vals))]
		}
		want := 0
		for j, v := range x {
			wantIdx[want], wantVal[want] = int32(100+j), v
			want += nonZero(v)
		}
		got := gatherNonZeros(x, 100, &nz)
		if got != want {
			t.Fatalf("n=%d: %d non-zeros, the scalar scan %d", n, got, want)
		}
		for q := range got {
			if nz.idx[q] != wantIdx[q] || math.Float32bits(nz.val[q]) != math.Float32bits(wantVal[q]) {
				t.Fatalf("n=%d entry %d: (%d, %v), the scalar scan (%d, %v)", n, q, nz.idx[q], nz.val[q], wantIdx[q], wantVal[q])
			}
		}
	}
}

func TestNonZero(t *testing.T) {
	for _, tc := range []struct {
		v    float32
		want int
	}{{0, 0}, {float32(math.Copysign(0, -1)), 0}, {1, 1}, {-2.5, 1}, {math.SmallestNonzeroFloat32, 1},
		{-math.SmallestNonzeroFloat32, 1}, {float32(math.Inf(-1)), 1}, {float32(math.NaN()), 1}, {math.MaxFloat32, 1}} {
		if got := nonZero(tc.v); got != tc.want {
			t.Errorf("nonZero(%v) = %d, want %d", tc.v, got, tc.want)
		}
	}
}

// On a matrix larger than sparseScanAll, sparseLeft judges a sample of the
// blocks: a hidden layer's ReLU/dropout zeros, spread at random, give the
// same decisions as the exact count well away from the bounds.
func TestSparseLeftSampledDecision(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels: Gemm never takes the sparse-left path")
	}
	rows := sparseScanAll/64 + 5000
	for _, c := range []struct {
		density float64
		transA  bool
		want    bool
	}{{0.1, false, true}, {0.5, false, false}, {0.15, true, true}, {0.4, true, false}} {
		a := randDense(newRand(3), rows, 64)
		sparsify(a, c.density, 9)
		kd := kernel{transA: c.transA, a: a, n: 64}
		if got := sparseLeft(&kd); got != c.want {
			t.Errorf("density %.2f transA %v: sparse path %v, want %v", c.density, c.transA, got, c.want)
		}
	}
}

// gemmSmallK gives the tiles' bits on products with a short inner index
// (1 to 8), c from 32 to 100 columns wide, zeros, negative zeros and an
// infinity in a, a NaN in b, b transposed or not (up to gemmSmallKMaxBT
// floats), any beta (0 over a c of NaNs), on 1 and 3 goroutines.
func TestGemmSmallKMatchesTilesBitForBit(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels: Gemm never takes the small-k path")
	}
	r := newRand(19)
	for _, k := range []int{1, 5, 8} {
		for _, n := range []int{32, 64, 100} {
			for _, transB := range []bool{false, true} {
				m := 37
				a, b := randDense(r, m, k), randDense(r, k, n)
				if transB {
					b = randDense(r, n, k)
				}
				sparsify(a, 0.5, 7)
				a.Data[3] = float32(math.Inf(1))
				b.Data[5] = float32(math.NaN())
				for _, ab := range [][2]float32{{1, 0}, {-0.5, 1}, {2, 0.3}} {
					c0 := randDense(r, m, n)
					if ab[1] == 0 { // beta 0 must not read c
						for i := range c0.Data {
							c0.Data[i] = float32(math.NaN())
						}
					}
					want := c0.Clone()
					kd := kernel{alpha: ab[0], a: a, b: b, beta: ab[1], c: want, m: m, n: n, k: k, transB: transB}
					if !smallK(&kd) {
						t.Fatalf("k=%d n=%d transB=%v: not a small-k product", k, n, transB)
					}
					gemmPanelRange(&kd, 0, (m+simd.TileRows-1)/simd.TileRows)
					for _, e := range []Exec{Serial, {Threads: 3}} {
						got := c0.Clone()
						Gemm(e, false, transB, ab[0], a, b, ab[1], got)
						for i := range want.Data {
							if math.Float32bits(got.Data[i]) != math.Float32bits(want.Data[i]) {
								t.Fatalf("k=%d n=%d transB=%v alpha=%v beta=%v threads=%d: element %d is %v, tiles %v", k, n, transB, ab[0], ab[1], e.Threads, i, got.Data[i], want.Data[i])
							}
						}
					}
				}
			}
		}
	}
}

// TestSparseLeftBoundFollowsTheTiles: with the AVX-512 tiles (simd.Wide)
// the sparse path stops sooner: an a·b whose left operand holds 28.5%
// non-zeros (between the two bounds) takes it only where the tiles are the
// AVX2 ones, and one with 23% (between the two aᵀ·b bounds) transposed
// likewise; 10% takes it either way.
func TestSparseLeftBoundFollowsTheTiles(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels")
	}
	withShare := func(share float64) *Dense {
		a := NewDense(40, 50) // 2000 floats, scanned whole
		for i := range int(share * float64(len(a.Data))) {
			a.Data[(i*7)%len(a.Data)] = 1 + float32(i%5) // 7 is prime to 2000: distinct places
		}
		return a
	}
	for _, c := range []struct {
		share        float64
		transA       bool
		avx2, avx512 bool
		name         string
	}{
		{0.285, false, true, false, "a·b at 28.5%"},
		{0.23, true, true, false, "aᵀ·b at 23%"},
		{0.10, false, true, true, "a·b at 10%"},
		{0.10, true, true, true, "aᵀ·b at 10%"},
	} {
		a := withShare(c.share)
		kd := kernel{a: a, b: randDense(newRand(4), 50, 64), m: 40, n: 64, k: 50, transA: c.transA}
		if c.transA {
			kd.b, kd.m, kd.k = randDense(newRand(4), 40, 64), 50, 40
		}
		want := c.avx2
		if simd.Wide() {
			want = c.avx512
		}
		if got := sparseLeft(&kd); got != want {
			t.Errorf("%s (wide %v): sparse path %v, want %v", c.name, simd.Wide(), got, want)
		}
	}
}
