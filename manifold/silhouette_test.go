package manifold

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestSilhouetteHandCases(t *testing.T) {
	line := func(v ...float32) *tensor.Dense {
		m := tensor.NewDense(len(v), 1)
		copy(m.Data, v)
		return m
	}
	// 0, 1 | 4, 5: s = (4.5−1)/4.5 for the outer points, (3.5−1)/3.5 for the
	// inner ones.
	want := (3.5/4.5 + 2.5/3.5) / 2
	if got := Silhouette(line(0, 1, 4, 5), []int32{7, 7, -2, -2}, 1); math.Abs(got-want) > 1e-12 {
		t.Errorf("two pairs: %v, want %v", got, want)
	}
	// 0 | 1, 2: the singleton has s = 0; point 1 has a = b = 1 (s = 0);
	// point 2 has a = 1, b = 2 (s = ½).
	if got := Silhouette(line(0, 1, 2), []int32{0, 1, 1}, 1); math.Abs(got-1.0/6) > 1e-12 {
		t.Errorf("singleton: %v, want 1/6", got)
	}
	// Three classes in the plane: point (0,0) of class 0 with (0,1); the
	// nearest other class is the closest on average.
	pts := tensor.FromRows([][]float32{{0, 0}, {0, 1}, {3, 0}, {4, 0}, {0, 10}})
	lab := []int32{0, 0, 1, 1, 2}
	var sum float64
	for i := 0; i < 5; i++ {
		sum += silhouetteNaive(pts, lab, i)
	}
	if got := Silhouette(pts, lab, 1); math.Abs(got-sum/5) > 1e-12 {
		t.Errorf("three classes: %v, want %v", got, sum/5)
	}
	if got := Silhouette(line(0, 1, 2), []int32{4, 4, 4}, 1); !math.IsNaN(got) {
		t.Errorf("one class: %v, want NaN", got)
	}
	// Coincident points of two classes: a = b = 0 gives s = 0.
	if got := Silhouette(line(1, 1, 1, 1), []int32{0, 0, 1, 1}, 1); got != 0 {
		t.Errorf("coincident points: %v, want 0", got)
	}
}

// silhouetteNaive is s(i) straight from the definition.
func silhouetteNaive(p *tensor.Dense, lab []int32, i int) float64 {
	dist := func(a, b int) float64 {
		var s float64
		for c := 0; c < p.Cols; c++ {
			v := float64(p.At(a, c) - p.At(b, c))
			s += v * v
		}
		return math.Sqrt(s)
	}
	sums, counts := map[int32]float64{}, map[int32]int{}
	for j := 0; j < p.Rows; j++ {
		if j != i {
			sums[lab[j]] += dist(i, j)
			counts[lab[j]]++
		}
	}
	if counts[lab[i]] == 0 {
		return 0
	}
	a := sums[lab[i]] / float64(counts[lab[i]])
	b := math.Inf(1)
	for l, s := range sums {
		if l != lab[i] {
			b = min(b, s/float64(counts[l]))
		}
	}
	return (b - a) / max(a, b)
}

func TestSilhouetteKnownCases(t *testing.T) {
	far, lab := testkit.Blobs(400, 5, 2, 50, 1)
	if s := Silhouette(far, lab, 2); s < 0.95 {
		t.Errorf("two far blobs: %v, want > 0.95", s)
	}
	// One Gaussian cloud with labels alternating: both classes have the
	// same distribution.
	same, _ := testkit.Blobs(400, 5, 1, 0, 2)
	alt := make([]int32, 400)
	for i := range alt {
		alt[i] = int32(i % 2)
	}
	if s := Silhouette(same, alt, 2); math.Abs(s) > 0.05 {
		t.Errorf("identical distributions: %v, want ≈ 0", s)
	}
}

func TestSilhouetteThreads(t *testing.T) {
	x, lab := testkit.Blobs(500, 3, 4, 2, 3)
	a := Silhouette(x, lab, 1)
	for _, th := range []int{2, 3, 0} {
		if b := Silhouette(x, lab, th); b != a {
			t.Fatalf("threads %d: %v, serial %v", th, b, a)
		}
	}
}
