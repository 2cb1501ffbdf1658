package manifold

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestCalibrateRowHandCase(t *testing.T) {
	// Two neighbours at the same distance: the only distribution is (½, ½),
	// whose perplexity is 2.
	p := make([]float64, 2)
	h := calibrateRow([]float64{3, 3}, p, math.Log(2))
	if p[0] != 0.5 || p[1] != 0.5 || math.Abs(h-math.Log(2)) > 1e-12 {
		t.Fatalf("p = %v, H = %v; want [0.5 0.5], log 2", p, h)
	}
}

func TestCalibrateRowReachesPerplexity(t *testing.T) {
	r := rng.New(3)
	for _, perp := range []float64{2, 5, 30, 80} {
		k := int(3 * perp)
		for _, scale := range []float64{1e-3, 1, 1e4} {
			d := make([]float64, k)
			for j := range d {
				d[j] = scale * (1 + 10*r.Float64())
			}
			p := make([]float64, k)
			h := calibrateRow(d, p, math.Log(perp))
			var sum, ent float64
			for _, v := range p {
				sum += v
				if v > 0 {
					ent -= v * math.Log(v)
				}
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Errorf("perplexity %g scale %g: Σp = %v", perp, scale, sum)
			}
			if math.Abs(ent-math.Log(perp)) > 1e-5 || math.Abs(ent-h) > 1e-9 {
				t.Errorf("perplexity %g scale %g: entropy %v (reported %v), want %v", perp, scale, ent, h, math.Log(perp))
			}
			for j := range d {
				for l := range d {
					if d[j] < d[l] && p[j] < p[l] {
						t.Fatalf("closer neighbour has lower affinity")
					}
				}
			}
		}
	}
}

func TestConditionalAffinitiesThreads(t *testing.T) {
	x, _ := testkit.Blobs(300, 5, 3, 4, 1)
	xs := toFloat64(x)
	_, d2 := nearestNeighbors(tensor.Serial, xs, 300, 5, 30)
	a := conditionalAffinities(tensor.Exec{Threads: 1}, d2, 300, 30, 10)
	b := conditionalAffinities(tensor.Exec{Threads: 2}, d2, 300, 30, 10)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("entry %d differs between 1 and 2 threads: %v vs %v", i, a[i], b[i])
		}
	}
}

func TestSymmetrizeHandCase(t *testing.T) {
	// n = 3, k = 1: 0→1, 1→0, 2→1, each with p = 1.
	p := symmetrize([]int32{1, 0, 1}, []float64{1, 1, 1}, 3, 1)
	wantPtr := []int{0, 1, 3, 4}
	wantCol := []int32{1, 0, 2, 1}
	wantVal := []float64{2.0 / 6, 2.0 / 6, 1.0 / 6, 1.0 / 6}
	for i, v := range wantPtr {
		if p.rowPtr[i] != v {
			t.Fatalf("rowPtr = %v, want %v", p.rowPtr, wantPtr)
		}
	}
	for e := range wantCol {
		if p.col[e] != wantCol[e] || math.Abs(p.val[e]-wantVal[e]) > 1e-15 {
			t.Fatalf("col/val = %v %v, want %v %v", p.col, p.val, wantCol, wantVal)
		}
	}
}

func TestSymmetrizeIsSymmetricAndNormalised(t *testing.T) {
	const n, k = 200, 15
	p := blobAffinities(n, 4, 2, 3, 2, k, 5)
	at := func(i, j int) float64 {
		for e := p.rowPtr[i]; e < p.rowPtr[i+1]; e++ {
			if int(p.col[e]) == j {
				return p.val[e]
			}
		}
		return 0
	}
	var sum float64
	for i := 0; i < n; i++ {
		for e := p.rowPtr[i]; e < p.rowPtr[i+1]; e++ {
			j := int(p.col[e])
			if j == i || (e > p.rowPtr[i] && p.col[e-1] >= p.col[e]) {
				t.Fatalf("row %d: diagonal or unsorted columns", i)
			}
			if p.val[e] != at(j, i) {
				t.Fatalf("P[%d,%d] = %v but P[%d,%d] = %v", i, j, p.val[e], j, i, at(j, i))
			}
			sum += p.val[e]
		}
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Fatalf("ΣP = %v, want 1", sum)
	}
}
