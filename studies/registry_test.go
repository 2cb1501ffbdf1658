package studies

import (
	"errors"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
)

func TestDatasetSelection(t *testing.T) {
	userDir := t.TempDir() // an existing path stands for a --data graph
	defaults := []string{"chameleon", "squirrel", "cora"}
	for _, c := range []struct {
		name  string
		opt   Options
		wants []string
	}{
		{"defaults", Options{}, defaults},
		{"narrowed", Options{Datasets: []string{"cora", "texas"}}, []string{"cora"}},
		{"no overlap trains none of the defaults", Options{Datasets: []string{"texas"}}, nil},
		{"no overlap keeps the user graph", Options{Datasets: []string{"texas", userDir}}, []string{userDir}},
		{"user graph added", Options{Datasets: []string{userDir}}, append(append([]string{}, defaults...), userDir)},
		{"user graph alone", Options{Datasets: []string{userDir}, PathsOnly: true}, []string{userDir}},
		{"user graph alone beside names", Options{Datasets: []string{"cora", userDir}, PathsOnly: true}, []string{"cora", userDir}},
		{"quick uses small graphs", Options{Quick: true}, []string{"cornell", "texas", "wisconsin"}},
		{"quick with a user graph uses only it", Options{Quick: true, Datasets: []string{userDir}}, []string{userDir}},
		{"quick with no overlap uses the names", Options{Quick: true, Datasets: []string{"texas"}}, []string{"texas"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &plan{opt: c.opt}
			if got := p.datasets(defaults); !reflect.DeepEqual(got, c.wants) {
				t.Errorf("%s: %v, want %v", c.name, got, c.wants)
			}
		})
	}
	if _, err := os.Stat(userDir); err != nil {
		t.Fatal(err)
	}
}

func TestPearson(t *testing.T) {
	line := []point{{X: 0, Y: 1}, {X: 1, Y: 3}, {X: 2, Y: 5}}
	if r := pearson(line); math.Abs(r-1) > 1e-12 {
		t.Errorf("r = %v, want 1", r)
	}
	anti := []point{{X: 0, Y: 2}, {X: 1, Y: 1}, {X: 2, Y: 0}}
	if r := pearson(anti); math.Abs(r+1) > 1e-12 {
		t.Errorf("r = %v, want -1", r)
	}
	if r := pearson([]point{{X: 1, Y: 1}, {X: 1, Y: 2}}); !math.IsNaN(r) {
		t.Errorf("constant X: r = %v, want NaN", r)
	}
}

func TestFigureNamesAreFileSafe(t *testing.T) {
	p := &plan{figDir: "docs/figures"}
	path, link := p.figure("hete_/tmp/my graph.png")
	if path != "docs/figures/hete__tmp_my_graph.png" || link != "figures/hete__tmp_my_graph.png" {
		t.Errorf("figure path %q, link %q", path, link)
	}
}

func TestSelectStudies(t *testing.T) {
	for _, c := range []struct {
		name string
		only []string
		want []string
	}{
		{"default: all but the optional", nil, []string{"stats", "main", "hete", "tsne", "sld", "labelrate", "missing", "ablation", "partial", "matching", "results"}},
		{"the results page goes with main", []string{"main"}, []string{"main", "results"}},
		{"registry order", []string{"fidelity", "sld", "stats"}, []string{"stats", "sld", "fidelity"}},
		{"the results page alone", []string{"results"}, []string{"results"}},
		{"the complexity study only when named", []string{"complexity", "stats"}, []string{"stats", "complexity"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ss, err := selectStudies(registry(), c.only)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range ss {
				got = append(got, s.name)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("%v, want %v", got, c.want)
			}
		})
	}
	_, err := New(Options{Only: []string{"main", "nope"}})
	if e, ok := errors.AsType[*UnknownStudyError](err); !ok || e.Name != "nope" || !strings.Contains(err.Error(), "valid: stats, main") {
		t.Errorf("unknown study: %v", err)
	}
}

func TestCellKeysUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range append(fidelityCells(paperDatasets(), allSplits(10)), mainTableCells([]string{"pcgcn", "gcn"}, paperDatasets(), allSplits(10))...) {
		if seen[c.Key()] {
			t.Errorf("duplicate key %s", c.Key())
		}
		seen[c.Key()] = true
	}
}

func TestTSNEVerdict(t *testing.T) {
	ex := map[string]float64{"silhouette_embedding_test": 0}
	for _, c := range []struct {
		sil  map[string]float64
		want string
	}{
		{map[string]float64{"pcgcn": 0.30, "gcn": 0.1, "linkx": 0.2}, "claim holds"},
		{map[string]float64{"pcgcn": 0.21, "gcn": 0.1, "linkx": 0.2}, "about equally"},
		{map[string]float64{"pcgcn": 0.10, "gcn": 0.1, "linkx": 0.2}, "does not hold"},
	} {
		t.Run(c.want, func(t *testing.T) {
			if v := tsneVerdict(ex, c.sil); !strings.Contains(v, c.want) {
				t.Errorf("%v: verdict %q, want %q", c.sil, v, c.want)
			}
		})
	}
	if v := tsneVerdict(map[string]float64{}, nil); !strings.Contains(v, "rerun") {
		t.Errorf("old cells: %q", v)
	}
	// PCGCN's cell recomputed, LINKX's older one without the silhouette:
	// no comparison with a missing number read as 0
	if v := tsneVerdict(ex, map[string]float64{"pcgcn": 0.05, "gcn": -0.1}); !strings.Contains(v, "rerun") {
		t.Errorf("a model without the test-node silhouette: %q", v)
	}
}

func TestCoverage(t *testing.T) {
	if got := coverage(3, 10, 90*time.Minute); !strings.Contains(got, "the 3 of the 10 cells of the full plan saved so far, whose training took 1h30m0s") || !strings.Contains(got, "--plan") {
		t.Errorf("partial: %q", got)
	}
	if got := coverage(10, 10, 40*time.Hour+29*time.Second); !strings.Contains(got, "all 10 cells of the full plan, whose training took 40h0m0s in all") || strings.Contains(got, "so far") {
		t.Errorf("complete: %q", got)
	}
}

// TestPlanCellsOwnTheirFiles: studies share cells (the full PCGCN of the
// main table is every variant study's reference), which the runner trains
// once; but two different cells saved under one file would overwrite each
// other's result, run after run.
func TestPlanCellsOwnTheirFiles(t *testing.T) {
	r, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, cells := r.p, r.cells
	if len(cells) < 100 {
		t.Fatalf("the full plan has %d cells", len(cells))
	}
	byPath := map[string]experiments.Cell{}
	for _, c := range cells {
		path := p.runner.Path(c)
		if len(c.Sets) == 0 {
			c.Sets = nil
		}
		if prev, ok := byPath[path]; ok && !reflect.DeepEqual(prev, c) {
			t.Errorf("%s holds two cells:\n%+v\n%+v", path, prev, c)
		}
		byPath[path] = c
	}
}

// Without the dataset files at hand (no data directory, offline, empty
// cache) a plan still lists every study's cells: the missing-class study
// takes the class count from the registry instead of dropping its 40 cells.
func TestPlanWithoutDataListsEveryCell(t *testing.T) {
	t.Setenv(datasets.EnvDataDir, "")
	opt := Options{Only: []string{"missing"}, ResultsDir: t.TempDir(),
		Data: datasets.Options{CacheDir: t.TempDir(), Offline: true}}
	r, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	plan := r.Plan()
	// Chameleon and Squirrel have 5 classes: 4 models × 5 dropped classes
	// per dataset, and the 4 models' full-label main cells (two candidates,
	// and two more for PCGCN on each directed twin)
	want := map[string]int{"missing": 2 * 4 * 5, "main": 2*4*2 + 2*2}
	got := map[string]int{}
	for _, e := range plan {
		got[e.Study] = e.Cells
		if e.Done != 0 || e.Splits != 10*e.Cells {
			t.Errorf("%+v: want no cell saved and 10 splits each", e)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cells per study %v, want %v", got, want)
	}
}

// The reports render the full plan whatever this run trained: a run on an
// own graph alone (PathsOnly) still reports every registry dataset beside it.
func TestFullPlanKeepsTheRegistryDatasets(t *testing.T) {
	userDir := t.TempDir()
	p := &plan{opt: Options{Datasets: []string{"cora", userDir}, PathsOnly: true}, splits: []int{0}}
	full := p.fullPlan()
	want := append(append([]string{}, paperDatasets()...), userDir)
	if got := full.datasets(paperDatasets()); !reflect.DeepEqual(got, want) {
		t.Errorf("full plan's datasets %v, want %v", got, want)
	}
	if got := p.datasets(paperDatasets()); !reflect.DeepEqual(got, []string{"cora", userDir}) {
		t.Errorf("this run's datasets %v, want cora and the own graph", got)
	}
}
