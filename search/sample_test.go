package search

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func mustSpace(t testing.TB, decls ...string) *Space {
	t.Helper()
	s, err := ParseSpace(decls...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSampleIsDeterministicBySeed(t *testing.T) {
	s := mustSpace(t, "lr=log:1e-4:1e-1", "hidden=int:16:256:log", "dropout=0:0.9", "norm=choice:none,layer,batch")
	a, err := s.Sample(7, 50)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := mustSpace(t, "lr=log:1e-4:1e-1", "hidden=int:16:256:log", "dropout=0:0.9", "norm=choice:none,layer,batch").Sample(7, 50)
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed gave different points")
	}
	// a longer draw extends a shorter one
	c, _ := s.Sample(7, 80)
	if !reflect.DeepEqual(a, c[:50]) {
		t.Error("Sample(7, 80) does not begin with Sample(7, 50)")
	}
	d, _ := s.Sample(8, 50)
	same := 0
	ids := map[ID]bool{}
	for _, p := range a {
		ids[p.ID] = true
	}
	for _, p := range d {
		if ids[p.ID] {
			same++
		}
	}
	if same > 2 {
		t.Errorf("seeds 7 and 8 share %d of 50 points", same)
	}
}

func TestSamplePoints(t *testing.T) {
	s := mustSpace(t, "lr=log:1e-4:1e-1", "hidden=int:16:256:log", "layers=int:1:4", "dropout=0:0.9", "norm=choice:none,layer,batch")
	pts, err := s.Sample(42, 200)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[ID]bool{}
	layers, norms := map[string]int{}, map[string]int{}
	for _, p := range pts {
		if seen[p.ID] {
			t.Fatalf("point %s drawn twice", p.ID)
		}
		seen[p.ID] = true
		if p.ID != PointID(p.Values) || len(p.ID) != 16 {
			t.Fatalf("point ID %q is not PointID of its values", p.ID)
		}
		if len(p.Values) != 5 {
			t.Fatalf("point %v lacks a dimension", p.Values)
		}
		lr, err := strconv.ParseFloat(p.Values["lr"], 64)
		if err != nil || lr < 1e-4 || lr > 0.1 {
			t.Fatalf("lr %q", p.Values["lr"])
		}
		if p.Values["lr"] != strconv.FormatFloat(lr, 'g', -1, 64) {
			t.Fatalf("lr %q is not in the shortest form", p.Values["lr"])
		}
		h, err := strconv.Atoi(p.Values["hidden"])
		if err != nil || h < 16 || h > 256 {
			t.Fatalf("hidden %q", p.Values["hidden"])
		}
		layers[p.Values["layers"]]++
		norms[p.Values["norm"]]++
		sets := p.Sets()
		if len(sets) != 5 || sets[0] != "dropout="+p.Values["dropout"] || !strings.HasPrefix(sets[4], "norm=") {
			t.Fatalf("Sets() = %v", sets)
		}
	}
	// quasi-random: the 1-D margins are nearly even
	for _, k := range []string{"1", "2", "3", "4"} {
		if layers[k] < 45 || layers[k] > 55 {
			t.Errorf("layers=%s drawn %d times of 200: %v", k, layers[k], layers)
		}
	}
	for _, k := range []string{"none", "layer", "batch"} {
		if norms[k] < 60 || norms[k] > 73 {
			t.Errorf("norm=%s drawn %d times of 200: %v", k, norms[k], norms)
		}
	}
}

func TestPointIDIsStable(t *testing.T) {
	v := map[string]string{"lr": "0.01", "hidden": "64"}
	// a golden value (printf 'hidden=64\nlr=0.01\n' | sha256sum): an ID names a trial's cell, so it must not change between builds
	if got := PointID(v); got != PointID(map[string]string{"hidden": "64", "lr": "0.01"}) || got != "f5e2c17a8e56f744" {
		t.Errorf("PointID = %s", got)
	}
	if PointID(v) == PointID(map[string]string{"lr": "0.01", "hidden": "65"}) {
		t.Error("different values share an ID")
	}
}

func TestSampleExhaustsAFiniteSpace(t *testing.T) {
	s := mustSpace(t, "a=choice:x,y", "k=int:1:3")
	pts, err := s.Sample(1, 6)
	if err != nil || len(pts) != 6 {
		t.Fatalf("all 6 points: %d, %v", len(pts), err)
	}
	if _, err := s.Sample(1, 7); err == nil || !strings.Contains(err.Error(), "only 6 distinct points") {
		t.Errorf("7 points of 6: %v", err)
	}
	if _, err := s.Sample(1, -1); err == nil {
		t.Error("a negative count was accepted")
	}
}

// starDiscrepancy estimates the star discrepancy of points in the unit square: the largest
// difference between the share of points in [0, a) × [0, b) and its area a·b, over a grid of
// corners (a, b) and the points' own coordinates.
func starDiscrepancy(xs, ys []float64) float64 {
	var anchors []float64
	for i := 1; i <= 64; i++ {
		anchors = append(anchors, float64(i)/64)
	}
	as := append(append([]float64(nil), anchors...), xs...)
	bs := append(append([]float64(nil), anchors...), ys...)
	n := float64(len(xs))
	worst := 0.0
	for _, a := range as {
		for _, b := range bs {
			open, closed := 0, 0
			for i := range xs {
				if xs[i] < a && ys[i] < b {
					open++
				}
				if xs[i] <= a && ys[i] <= b {
					closed++
				}
			}
			worst = math.Max(worst, math.Max(math.Abs(float64(open)/n-a*b), math.Abs(float64(closed)/n-a*b)))
		}
	}
	return worst
}

// TestHaltonBeatsPseudoRandom asserts the sampler's points cover the unit square more evenly
// than pseudo-random ones: the star discrepancy of 256 points, over 8 seeds, is at most half
// the pseudo-random one's (theory: O(log² n / n) against O(1/√n)), and at every seed below the
// best pseudo-random draw.
func TestHaltonBeatsPseudoRandom(t *testing.T) {
	s := mustSpace(t, "x=0:1", "y=0:1")
	const n, seeds = 256, 8
	var halton, random []float64
	for seed := uint64(1); seed <= seeds; seed++ {
		pts, err := s.Sample(seed, n)
		if err != nil {
			t.Fatal(err)
		}
		xs, ys := make([]float64, n), make([]float64, n)
		for i, p := range pts {
			xs[i], _ = strconv.ParseFloat(p.Values["x"], 64)
			ys[i], _ = strconv.ParseFloat(p.Values["y"], 64)
		}
		halton = append(halton, starDiscrepancy(xs, ys))
		r := rand.New(rand.NewPCG(seed, 1))
		for i := range xs {
			xs[i], ys[i] = r.Float64(), r.Float64()
		}
		random = append(random, starDiscrepancy(xs, ys))
	}
	mean := func(v []float64) float64 {
		s := 0.0
		for _, x := range v {
			s += x
		}
		return s / float64(len(v))
	}
	minRandom := random[0]
	for _, x := range random {
		minRandom = math.Min(minRandom, x)
	}
	t.Logf("star discrepancy of %d points: Halton %.4f (%v), pseudo-random %.4f (%v)", n, mean(halton), halton, mean(random), random)
	if mean(halton) > 0.5*mean(random) {
		t.Errorf("Halton's mean discrepancy %.4f is not under half the pseudo-random %.4f", mean(halton), mean(random))
	}
	for i, h := range halton {
		if h >= minRandom {
			t.Errorf("seed %d: Halton's discrepancy %.4f is not below the best pseudo-random %.4f", i+1, h, minRandom)
		}
	}
}

// TestHighDimensionProjections checks the scrambling: unscrambled Halton points in large prime
// bases line up along diagonals in their 2-D projections, so the projection on the 7th and 8th
// dimensions (bases 17 and 19) must still beat pseudo-random points.
func TestHighDimensionProjections(t *testing.T) {
	var decls []string
	for _, name := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		decls = append(decls, name+"=0:1")
	}
	s := mustSpace(t, decls...)
	const n = 256
	var worst, best float64 = 0, 1
	for seed := uint64(1); seed <= 4; seed++ {
		pts, err := s.Sample(seed, n)
		if err != nil {
			t.Fatal(err)
		}
		xs, ys := make([]float64, n), make([]float64, n)
		for i, p := range pts {
			xs[i], _ = strconv.ParseFloat(p.Values["g"], 64)
			ys[i], _ = strconv.ParseFloat(p.Values["h"], 64)
		}
		worst = math.Max(worst, starDiscrepancy(xs, ys))
		r := rand.New(rand.NewPCG(seed, 2))
		for i := range xs {
			xs[i], ys[i] = r.Float64(), r.Float64()
		}
		best = math.Min(best, starDiscrepancy(xs, ys))
	}
	t.Logf("dimensions 7 and 8: Halton at worst %.4f, pseudo-random at best %.4f", worst, best)
	if worst >= best {
		t.Errorf("dimensions 7 and 8: Halton's worst discrepancy %.4f is not below pseudo-random's best %.4f", worst, best)
	}
}
