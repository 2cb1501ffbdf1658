package tensor

import (
	"fmt"
	"math"
	"testing"
)

// gemmShape is one product benchmarked by BenchmarkGemm: op(a) is m×k, op(b)
// k×n, as in Gemm.
type gemmShape struct {
	name         string
	m, k, n      int
	transA, tran bool
}

// gemmShapes are the dense products the models meet: Chameleon's features
// times weights and its two gradients, Cora-sized 512-wide layers, and the
// hidden-layer products (n×64)·(64×64) and (n×64)·(64×5).
var gemmShapes = []gemmShape{
	{"NN_2277x2325x64", 2277, 2325, 64, false, false},
	{"NN_2708x512x512", 2708, 512, 512, false, false},
	{"TN_2325x2277x64", 2325, 2277, 64, true, false},
	{"NT_2277x64x2325", 2277, 64, 2325, false, true},
	{"NN_2277x64x64", 2277, 64, 64, false, false},
	{"NN_2277x64x5", 2277, 64, 5, false, false},
	{"NN_183x64x64", 183, 64, 64, false, false},
}

// gemmOperands returns random a, b, c stored so that op(a) is m×k and op(b)
// is k×n.
func gemmOperands(s gemmShape) (a, b, c *Dense) {
	a, b = randOperands(newRand(11), s.m, s.k, s.n, s.transA, s.tran)
	return a, b, NewDense(s.m, s.n)
}

// largeGemmShapes are the hidden-layer products of a 1M-node full-batch
// step: the forward (n×64)·(64×64), the weight gradient Hᵀ·G and the input
// gradient G·Wᵀ, the narrow (n×64)·(64×5) of the prototype scores and its
// gradient, and B·(PW) of PCGCN's control term. About 1 GiB, so BenchmarkGemmLarge runs them only without -short.
var largeGemmShapes = []gemmShape{
	{"NN_1Mx64x64", 1_000_000, 64, 64, false, false},
	{"TN_64x1Mx64", 64, 1_000_000, 64, true, false},
	{"NT_1Mx64x64", 1_000_000, 64, 64, false, true},
	{"NT_1Mx64x5", 1_000_000, 64, 5, false, true},
	{"TN_5x1Mx64", 5, 1_000_000, 64, true, false},
	{"NN_1Mx5x64", 1_000_000, 5, 64, false, false},
}

// BenchmarkGemmLarge times largeGemmShapes.
func BenchmarkGemmLarge(b *testing.B) {
	if testing.Short() {
		b.Skip("1 GiB benchmark; run without -short")
	}
	benchGemm(b, largeGemmShapes)
}

func BenchmarkGemm(b *testing.B) { benchGemm(b, gemmShapes) }

func benchGemm(b *testing.B, shapes []gemmShape) {
	for _, s := range shapes {
		b.Run(s.name, func(b *testing.B) {
			x, y, c := gemmOperands(s)
			e := Exec{}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				Gemm(e, s.transA, s.tran, 1, x, y, 0, c)
			}
			b.ReportMetric(2*float64(s.m)*float64(s.k)*float64(s.n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// powerLawGraph returns a symmetric n-node adjacency with about nnz stored
// entries whose degrees follow a power law (Chung–Lu sampling with weights
// (i+1)^-0.75), marked symmetric, like Squirrel's 5,201 nodes and ~400k
// non-zeros.
func powerLawGraph(n, nnz int, seed uint64) *CSR {
	r := newRand(seed)
	cum := make([]float64, n+1)
	for i := 0; i < n; i++ {
		cum[i+1] = cum[i] + math.Pow(float64(i+1), -0.75)
	}
	pick := func() int32 {
		u := r.Float64() * cum[n]
		lo, hi := 0, n
		for lo+1 < hi {
			mid := (lo + hi) / 2
			if cum[mid] <= u {
				lo = mid
			} else {
				hi = mid
			}
		}
		return int32(lo)
	}
	ts := make([]Triplet, 0, nnz+nnz/8)
	for len(ts) < nnz+nnz/8 {
		u, v := pick(), int32(r.IntN(n))
		if u == v {
			continue
		}
		ts = append(ts, Triplet{Row: u, Col: v, Val: 1}, Triplet{Row: v, Col: u, Val: 1})
	}
	a := FromTriplets(n, n, ts)
	for k := range a.Val {
		a.Val[k] = 1 / a.Val[k] // any symmetric values will do
	}
	return a.MarkSymmetric()
}

// sparseCase is one sparse product benchmarked below.
type sparseCase struct {
	name string
	a    *CSR
	cols int
}

func sparseCases() []sparseCase {
	r := newRand(12)
	return []sparseCase{
		{"Chameleon_feat_2277x2325_1.5pct", randCSR(r, 2277, 2325, 0.015, false), 64},
		{"Squirrel_adj_5201", powerLawGraph(5201, 400000, 13), 64},
		{"Cornell_feat_183x1703_1pct", randCSR(r, 183, 1703, 0.01, false), 64},
		{"Cornell_adj_183", powerLawGraph(183, 600, 14), 64},
	}
}

func reportMACs(b *testing.B, macs int) {
	rate := float64(macs) * float64(b.N) / b.Elapsed().Seconds()
	b.ReportMetric(rate/1e9, "GMAC/s")
	b.ReportMetric(rate/1e9/float64(Exec{}.N()), "GMAC/s/core")
}

// uniformGraph returns an n-node symmetric random graph of about n·deg
// stored entries (uniform endpoints, as in a cSBM) plus self-loops, with
// the values of Â's normalisation left at 1: the memory access pattern of
// a million-node full-batch step, which no cache holds.
func uniformGraph(n, deg int, seed uint64) *CSR {
	r := newRand(seed)
	ts := make([]Triplet, 0, n*deg+n)
	for i := 0; i < n; i++ {
		ts = append(ts, Triplet{Row: int32(i), Col: int32(i), Val: 1})
	}
	for len(ts) < n*deg+n {
		u, v := int32(r.IntN(n)), int32(r.IntN(n))
		if u != v {
			ts = append(ts, Triplet{Row: u, Col: v, Val: 1}, Triplet{Row: v, Col: u, Val: 1})
		}
	}
	return FromTriplets(n, n, ts)
}

// BenchmarkSpMMLarge is the full-batch SpMM of a 1M-node graph of average
// degree 20 (issue 27's cSBM size) at widths 64 (hidden) and 5 (PCGCN's class scores S); about 1 GiB, so it runs only
// without -short.
func BenchmarkSpMMLarge(b *testing.B) {
	if testing.Short() {
		b.Skip("1 GiB benchmark; run without -short")
	}
	a := uniformGraph(1_000_000, 20, 15)
	for _, d := range []int{64, 5} {
		x := randDense(newRand(1), a.Cols, d)
		c := NewDense(a.Rows, d)
		b.Run(fmt.Sprintf("Uniform_1M_nnz%d_d%d", a.NNZ(), d), func(b *testing.B) {
			for b.Loop() {
				SpMM(Exec{}, 1, a, x, 0, c)
			}
			reportMACs(b, a.NNZ()*d)
		})
	}
}

func BenchmarkSpMM(b *testing.B) {
	for _, sc := range sparseCases() {
		b.Run(fmt.Sprintf("%s_nnz%d", sc.name, sc.a.NNZ()), func(b *testing.B) {
			x := randDense(newRand(1), sc.a.Cols, sc.cols)
			c := NewDense(sc.a.Rows, sc.cols)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				SpMM(Exec{}, 1, sc.a, x, 0, c)
			}
			reportMACs(b, sc.a.NNZ()*sc.cols)
		})
	}
}

func BenchmarkSpMMT(b *testing.B) {
	for _, sc := range sparseCases() {
		b.Run(fmt.Sprintf("%s_nnz%d", sc.name, sc.a.NNZ()), func(b *testing.B) {
			x := randDense(newRand(1), sc.a.Rows, sc.cols)
			c := NewDense(sc.a.Cols, sc.cols)
			SpMMT(Exec{}, 1, sc.a, x, 0, c) // builds the cached transpose
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				SpMMT(Exec{}, 1, sc.a, x, 0, c)
			}
			reportMACs(b, sc.a.NNZ()*sc.cols)
		})
	}
}

func BenchmarkSDDMM(b *testing.B) {
	a := powerLawGraph(5201, 400000, 13)
	x := randDense(newRand(1), a.Rows, 64)
	y := randDense(newRand(2), a.Cols, 64)
	out := make([]float32, a.NNZ())
	b.Run(fmt.Sprintf("Squirrel_adj_5201_nnz%d_d64", a.NNZ()), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			SDDMM(Exec{}, a, x, y, out)
		}
		reportMACs(b, a.NNZ()*64)
	})
}

func BenchmarkRowSoftmax(b *testing.B) {
	a := powerLawGraph(5201, 400000, 13)
	r := newRand(3)
	vals := make([]float32, a.NNZ())
	for i := range vals {
		vals[i] = float32(r.NormFloat64())
	}
	out := make([]float32, a.NNZ())
	b.Run(fmt.Sprintf("Squirrel_adj_5201_nnz%d", a.NNZ()), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			RowSoftmax(Exec{}, a, vals, out)
		}
		b.ReportMetric(float64(a.NNZ())*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mentries/s")
	})
}
