package manifold

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

func TestPCAHandCase(t *testing.T) {
	// Points on the diagonal y = x, mean 0: the first component is (1,1)/√2
	// and the scores are the signed distances along it.
	x := []float64{1, 1, -1, -1, 2, 2, -2, -2}
	got := pca(tensor.Serial, x, 4, 2, 1, rng.New(1))
	want := []float64{math.Sqrt2, -math.Sqrt2, 2 * math.Sqrt2, -2 * math.Sqrt2}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("scores %v, want %v", got, want)
		}
	}
}

// lowRankData returns n points in d dimensions: a rank-r signal with
// decreasing strengths plus small noise, shifted by a constant offset.
func lowRankData(n, d, r int, seed uint64) []float64 {
	g := rng.New(seed)
	basis := make([][]float64, r)
	for j := range basis {
		basis[j] = make([]float64, d)
		for c := range basis[j] {
			basis[j][c] = g.NormFloat64()
		}
	}
	x := make([]float64, n*d)
	for i := 0; i < n; i++ {
		for j := 0; j < r; j++ {
			s := float64(r-j) * 3 * g.NormFloat64()
			for c := 0; c < d; c++ {
				x[i*d+c] += s * basis[j][c]
			}
		}
		for c := 0; c < d; c++ {
			x[i*d+c] += 0.01*g.NormFloat64() + 7
		}
	}
	return x
}

func TestRandomizedPCAMatchesExact(t *testing.T) {
	const n, d, k = 400, 60, 5
	x := lowRankData(n, d, 8, 4)
	mean := make([]float64, d)
	for i := 0; i < n; i++ {
		for c := 0; c < d; c++ {
			mean[c] += x[i*d+c] / n
		}
	}
	exact := exactComponents(tensor.Serial, x, mean, n, d, k)
	approx := randomizedComponents(tensor.Serial, newRowMatrix(x, n, d), mean, k, rng.New(5))
	for j := 0; j < k; j++ {
		cos := math.Abs(mat.Dot(exact.ColView(j), approx.ColView(j)))
		if cos < 1-1e-6 {
			t.Errorf("component %d: |cos| = %v", j, cos)
		}
	}
}

func TestPCAScoresAreUncorrelatedAndOrdered(t *testing.T) {
	for _, d := range []int{40, 300} { // exact and randomized paths
		const n, k = 500, 4
		x := lowRankData(n, d, 6, uint64(d))
		s := pca(tensor.Exec{Threads: 2}, x, n, d, k, rng.New(1))
		var cov [k][k]float64
		for i := 0; i < n; i++ {
			for a := 0; a < k; a++ {
				for b := 0; b < k; b++ {
					cov[a][b] += s[i*k+a] * s[i*k+b]
				}
			}
		}
		for a := 0; a < k; a++ {
			if a > 0 && cov[a][a] > cov[a-1][a-1] {
				t.Errorf("d = %d: variance of component %d exceeds the previous one", d, a)
			}
			for b := 0; b < a; b++ {
				if r := cov[a][b] / math.Sqrt(cov[a][a]*cov[b][b]); math.Abs(r) > 1e-6 {
					t.Errorf("d = %d: components %d and %d correlate: %v", d, a, b, r)
				}
			}
		}
		serial := pca(tensor.Serial, x, n, d, k, rng.New(1))
		for i := range s {
			if s[i] != serial[i] {
				t.Fatalf("d = %d: 1 and 2 threads differ at %d", d, i)
			}
		}
	}
}
