package manifold

import (
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
	"math"
	"strings"
	"testing"
	"time"
)

func TestTSNESeparatesBlobs(t *testing.T) {
	const n, d = 600, 64
	x, lab := testkit.Blobs(n, d, 4, 3, 1)
	start := time.Now()
	y, err := TSNE(x, Options{Seed: 1, Iterations: 500})
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	if y.Rows != n || y.Cols != 2 {
		t.Fatalf("output %s, want %d×2", y.Shape(), n)
	}
	for _, v := range y.Data {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			t.Fatal("non-finite output")
		}
	}
	sIn, sOut := Silhouette(x, lab, 0), Silhouette(y, lab, 0)
	keep := neighborPreservation(toFloat64(x), d, toFloat64(y), 2, n, 10)
	t.Logf("%v; silhouette input %.3f, layout %.3f; 10-NN preserved %.3f", elapsed, sIn, sOut, keep)
	if sOut < 0.5 {
		t.Errorf("silhouette of the layout %.3f, want > 0.5", sOut)
	}
	if keep < 0.2 {
		t.Errorf("10-NN preservation %.3f, want > 0.2 (0.07 for a layout random within each blob)", keep)
	}
}

// sheet returns n points of a rolled-up square (a Swiss roll) placed in d ≥ 3
// dimensions by a fixed rotation-free embedding plus small noise.
func sheet(n, d int, seed uint64) *tensor.Dense {
	r := rng.New(seed)
	x := tensor.NewDense(n, d)
	for i := 0; i < n; i++ {
		u := 1.5 * math.Pi * (1 + 2*r.Float64())
		v := 20 * r.Float64()
		row := x.Row(i)
		row[0] = float32(u * math.Cos(u))
		row[1] = float32(v)
		row[2] = float32(u * math.Sin(u))
		for c := 3; c < d; c++ {
			row[c] = float32(0.05 * r.NormFloat64())
		}
	}
	return x
}

func TestTSNEPreservesNeighboursOnAManifold(t *testing.T) {
	const n, d = 400, 10
	x := sheet(n, d, 3)
	y, err := TSNE(x, Options{Seed: 2, Iterations: 500})
	if err != nil {
		t.Fatal(err)
	}
	keep := neighborPreservation(toFloat64(x), d, toFloat64(y), 2, n, 10)
	t.Logf("10-NN preserved %.3f", keep)
	if keep < 0.5 {
		t.Errorf("10-NN preservation %.3f, want > 0.5", keep)
	}
}

func TestTSNEDeterministic(t *testing.T) {
	// d = 64 goes through the exact PCA, d = 300 through the randomized one.
	for _, d := range []int{64, 300} {
		x, _ := testkit.Blobs(150, d, 3, 2, 4)
		for _, pcaInit := range []bool{false, true} {
			opt := Options{Seed: 11, Iterations: 80, ExaggerationIters: 30, PCADims: 10, Threads: 1, PCAInit: pcaInit}
			a, err := TSNE(x, opt)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := TSNE(x, opt)
			opt.Threads = 2
			c, _ := TSNE(x, opt)
			if !testkit.EqualDense(a, b) {
				t.Errorf("d = %d, PCAInit %v: two runs with one seed differ", d, pcaInit)
			}
			if !testkit.EqualDense(a, c) {
				t.Errorf("d = %d, PCAInit %v: 1 and 2 threads differ", d, pcaInit)
			}
			opt.Seed = 12
			e, _ := TSNE(x, opt)
			// A different seed changes the random start, or with PCAInit on a
			// wide input the randomized PCA; the exact PCA start has no
			// randomness left.
			if differ := !testkit.EqualDense(a, e); differ != (!pcaInit || d > exactPCAMaxDims) {
				t.Errorf("d = %d, PCAInit %v: seeds 11 and 12 differ: %v", d, pcaInit, differ)
			}
		}
	}
}

func TestTSNEPCAInitSeparatesBlobs(t *testing.T) {
	x, lab := testkit.Blobs(200, 20, 3, 3, 5)
	y, err := TSNE(x, Options{PCAInit: true, Iterations: 300})
	if err != nil {
		t.Fatal(err)
	}
	if s := Silhouette(y, lab, 0); s < 0.5 {
		t.Errorf("silhouette %.3f, want > 0.5", s)
	}
}

func TestTSNEExactAndBarnesHutBothSeparate(t *testing.T) {
	// θ = 0 (Theta < 0) sums every pair; on well-separated blobs both
	// layouts separate them.
	x, lab := testkit.Blobs(150, 8, 2, 8, 6)
	for _, theta := range []float64{-1, 0.5} {
		y, err := TSNE(x, Options{Theta: theta, Iterations: 500, Perplexity: 20, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		s := Silhouette(y, lab, 0)
		t.Logf("theta %v: silhouette %.3f", theta, s)
		if s < 0.5 {
			t.Errorf("theta %v: silhouette %.3f, want > 0.5", theta, s)
		}
	}
}

func TestTSNEErrors(t *testing.T) {
	x, _ := testkit.Blobs(20, 3, 2, 1, 1)
	nan := x.Clone()
	nan.Set(3, 1, float32(math.NaN()))
	cases := []struct {
		name string
		x    *tensor.Dense
		opt  Options
		want string
	}{
		{"nil", nil, Options{}, "nil input"},
		{"one point", tensor.NewDense(1, 3), Options{}, "at least 2 points"},
		{"perplexity above n", x, Options{}, "perplexity 30 needs more than 31 points"},
		{"negative perplexity", x, Options{Perplexity: -1}, "invalid Perplexity"},
		{"NaN", nan, Options{Perplexity: 5}, "non-finite value at row 3, column 1"},
		{"negative rate", x, Options{Perplexity: 5, LearningRate: -1}, "invalid LearningRate"},
	}
	for _, c := range cases {
		_, err := TSNE(c.x, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	// The smallest n a perplexity allows works.
	if _, err := TSNE(x, Options{Perplexity: 5, Iterations: 10}); err != nil {
		t.Errorf("n = 20, perplexity 5: %v", err)
	}
}
