package synth

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/graphio"
)

func testConfig() CSBM {
	return CSBM{Nodes: 20_000, AvgDegree: 10, Classes: 5, Homophily: 0.2, Features: 16, Signal: 2,
		Seed: 7, Splits: graph.SplitSpec{Train: 0.48, Val: 0.32, Test: 0.2, Num: 3, Seed: 7}}
}

// writeRead generates c, writes it and reads it back as a user graph.
func writeRead(t *testing.T, c CSBM) (*Generated, *graph.Graph, string) {
	t.Helper()
	gen, err := Generate(c)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "csbm")
	if err := gen.Write(dir); err != nil {
		t.Fatal(err)
	}
	g, err := graphio.ReadUserGraph(dir)
	if err != nil {
		t.Fatal(err)
	}
	return gen, g, dir
}

func TestCSBMStatistics(t *testing.T) {
	c := testConfig()
	gen, g, _ := writeRead(t, c)
	s := graph.ComputeStats(g)
	// duplicates merged by the loader are the only departure from H and D
	if math.Abs(s.EdgeHomophily-c.Homophily) > 0.01 {
		t.Errorf("edge homophily %.4f, want %.2f", s.EdgeHomophily, c.Homophily)
	}
	if math.Abs(s.DegreeMean-c.AvgDegree)/c.AvgDegree > 0.005 {
		t.Errorf("average degree %.3f, want %.1f", s.DegreeMean, c.AvgDegree)
	}
	for k, sz := range s.ClassSizes {
		if sz != c.Nodes/c.Classes {
			t.Errorf("class %d has %d nodes, want %d", k, sz, c.Nodes/c.Classes)
		}
	}
	// class means: norm MU, pairwise MU·√2 apart (sampling error ≈ √(F/4000) ≈ 0.06)
	x := g.X.ToDense()
	means := make([][]float64, c.Classes)
	for k := range means {
		means[k] = make([]float64, c.Features)
	}
	for i, y := range g.Y {
		for j, v := range x.Row(i) {
			means[y][j] += float64(v) / float64(s.ClassSizes[y])
		}
	}
	dist := func(a, b []float64) float64 {
		d := 0.0
		for j := range a {
			d += (a[j] - b[j]) * (a[j] - b[j])
		}
		return math.Sqrt(d)
	}
	zero := make([]float64, c.Features)
	for k := range means {
		if d := dist(means[k], gen.ClassMean(k)); d > 0.15 {
			t.Errorf("class %d mean is %.3f from μ_%d", k, d, k)
		}
		if nrm := dist(means[k], zero); math.Abs(nrm-c.Signal) > 0.15 {
			t.Errorf("class %d mean has norm %.3f, want %.1f", k, nrm, c.Signal)
		}
		for l := range k {
			if d := dist(means[k], means[l]); math.Abs(d-c.Signal*math.Sqrt2) > 0.2 {
				t.Errorf("classes %d and %d means %.3f apart, want %.3f", k, l, d, c.Signal*math.Sqrt2)
			}
		}
	}
	// stratified splits: 48/32/20 of each class of 4000
	if len(g.Splits) != 3 {
		t.Fatalf("%d splits", len(g.Splits))
	}
	for _, sp := range g.Splits {
		if len(sp.Train) != 5*1920 || len(sp.Val) != 5*1280 || len(sp.Test) != 5*800 {
			t.Fatalf("split sizes %d/%d/%d", len(sp.Train), len(sp.Val), len(sp.Test))
		}
	}
	if slices.Equal(g.Splits[0].Train, g.Splits[1].Train) {
		t.Fatal("splits 0 and 1 are the same")
	}
	// the splits train would draw for this graph without splits.npz
	drawn, err := graph.RandomSplits(g, c.Splits)
	if err != nil {
		t.Fatal(err)
	}
	for k := range drawn {
		if !slices.Equal(drawn[k].Train, g.Splits[k].Train) || !slices.Equal(drawn[k].Test, g.Splits[k].Test) {
			t.Fatalf("split %d differs from graph.RandomSplits", k)
		}
	}
}

func TestCSBMDeterministic(t *testing.T) {
	c := testConfig()
	c.Nodes, c.Features = 3001, 3 // odd sizes: normal pairs straddle rows
	_, _, a := writeRead(t, c)
	_, _, b := writeRead(t, c)
	c.Seed++
	_, _, d := writeRead(t, c)
	for _, f := range []string{"edges.npy", "labels.npy", "features.npy", "splits.npz"} {
		x, _ := os.ReadFile(filepath.Join(a, f))
		y, _ := os.ReadFile(filepath.Join(b, f))
		z, _ := os.ReadFile(filepath.Join(d, f))
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s: same seed, different bytes", f)
		}
		if bytes.Equal(x, z) {
			t.Errorf("%s: another seed, same bytes", f)
		}
	}
}

func TestCSBMExtremes(t *testing.T) {
	for _, h := range []float64{0, 1} {
		c := CSBM{Nodes: 50, AvgDegree: 6, Classes: 3, Homophily: h, Features: 1, Seed: 3}
		gen, err := Generate(c)
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		if h == 1 {
			want = c.NumEdges()
		}
		err = gen.Edges(func(es []graph.Edge) error {
			for _, e := range es {
				if e[0] == e[1] {
					t.Fatalf("self-loop %v", e)
				}
			}
			if got := gen.SameClass(es); got != want {
				t.Fatalf("homophily %v: %d same-class edges of %d", h, got, len(es))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestCSBMValidate(t *testing.T) {
	for _, c := range []struct {
		mod      func(*CSBM)
		fragment string
	}{
		{func(c *CSBM) { c.Classes = 1 }, "classes must be in [2, 65536], got 1"},
		{func(c *CSBM) { c.Nodes = 9 }, "nodes must be"},
		{func(c *CSBM) { c.Homophily = 1.5 }, "homophily must be in [0, 1], got 1.5"},
		{func(c *CSBM) { c.Homophily = math.NaN() }, "homophily must be in [0, 1], got NaN"},
		{func(c *CSBM) { c.AvgDegree = math.NaN() }, "avg_degree must be a finite number"},
		{func(c *CSBM) { c.Features = 0 }, "features must be at least 1"},
		{func(c *CSBM) { c.Signal = math.Inf(1) }, "signal must be a finite number ≥ 0"},
		{func(c *CSBM) { c.Splits.Val = 0.5 }, "sum to 1.18, more than 1"},
		{func(c *CSBM) { c.Splits.Train = -0.1 }, "train fraction must be in (0, 1]"},
		{func(c *CSBM) { c.Nodes, c.AvgDegree = 10, 2 }, "10 nodes give an empty test set"},
	} {
		cfg := testConfig()
		cfg.Classes = 5
		c.mod(&cfg)
		if _, err := Generate(cfg); err == nil || !strings.Contains(err.Error(), c.fragment) {
			t.Errorf("want an error about %s, got %v", c.fragment, err)
		}
	}
}
