package experiments

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/train"
)

// A search trial is priced by the work of its configuration on its graph:
// with no graph (one node, edge and feature) a 512-wide, 10-layer GCN does
// (512 + 10·(512² + 512)) / (64 + 2·(64² + 64)) times the work
// of a 64-wide, 2-layer one, and a rate measured on the small one prices
// the wide one that much dearer; a cell without overrides is priced as
// its preset; without Work every configuration costs the same.
func TestEstimatorPricesConfigurations(t *testing.T) {
	reg := models.NewRegistry()
	cell := func(sets map[string]string) Cell {
		return Cell{Study: "search", Model: "gcn", Dataset: "chameleon", Sets: sets, Splits: []int{0}}
	}
	small, wide := cell(map[string]string{"hidden": "64", "layers": "2"}), cell(map[string]string{"hidden": "512", "layers": "10"})
	spec, err := reg.Get("gcn")
	if err != nil {
		t.Fatal(err)
	}
	preset, err := models.Resolve(spec, "chameleon")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cellWork(reg, cell(nil), nil), epochWork(preset.Base().Hidden, preset.Base().Layers, nil); got != want {
		t.Errorf("the preset's work %v, want %v", got, want)
	}
	ratio := cellWork(reg, wide, nil) / cellWork(reg, small, nil)
	if want := (512 + 10*(512*512+512.0)) / (64 + 2*(64*64+64.0)); math.Abs(ratio-want) > 1e-9*want {
		t.Errorf("512 wide × 10 layers against 64 × 2: %v times the work, want %v", ratio, want)
	}
	noGraph := NewGraphCache(func(string) (*graph.Graph, error) { return nil, errors.New("no data") })
	est := &Estimator{Graphs: noGraph, Work: func(c Cell, g *graph.Graph) float64 { return cellWork(reg, c, g) }}
	measured := &Result{Cell: small, PerSplit: make([]SplitResult, 1)}
	measured.Seconds = 2
	est.Add(measured)
	if got, want := est.Cost(wide), 2*ratio; math.Abs(got-want) > 1e-9*want {
		t.Errorf("the wide trial's split: %v s, want %v (the small one's 2 s times %v)", got, want, ratio)
	}
	if got := est.Cost(small); math.Abs(got-2) > 1e-12 {
		t.Errorf("the measured configuration's split: %v s, want 2", got)
	}
	plain := &Estimator{Graphs: noGraph}
	plain.Add(measured)
	if got := plain.Cost(wide); got != 2 {
		t.Errorf("without Work every configuration costs the measured %v s, got %v", 2, got)
	}
}

// GAT's plain form is priced at its layers' whole width, every head: its
// preset (8 heads of 8 units) does the work of a 64-wide layer, not an
// 8-wide one (which made a fresh directory's plan of a GAT search, priced
// from the preset's cells, 160 times its time on Chameleon); in the
// classic form hidden is the whole width, which the heads split.
func TestCellWorkCountsEveryHead(t *testing.T) {
	reg := models.NewRegistry()
	gat := func(sets map[string]string) float64 {
		return cellWork(reg, Cell{Model: "gat", Dataset: "chameleon", Sets: sets, Splits: []int{0}}, nil)
	}
	if got, want := gat(nil), epochWork(64, 2, nil); got != want {
		t.Errorf("GAT's preset: work %v, want %v (64 wide)", got, want)
	}
	if got, want := gat(map[string]string{"input_linear": "true", "hidden": "64", "heads": "8"}), epochWork(64, 2, nil); got != want {
		t.Errorf("GAT's classic form, hidden 64 in 8 heads: work %v, want %v", got, want)
	}
}

// epochWork weighs a graph's parts as its doc says: on a graph of N nodes,
// A adjacency entries and X feature values, X·h + L·(N·h² + A·h), a node
// weighing h times an edge in each layer, so that a graph of many nodes
// and few edges (Actor, Minesweeper) can cost a wide model more than one
// of as many entries in all but fewer nodes.
func TestEpochWorkWeighsTheGraph(t *testing.T) {
	g := &graph.Graph{N: 3, Adj: tensor.FromTriplets(3, 3, []tensor.Triplet{{Row: 0, Col: 1, Val: 1}, {Row: 1, Col: 0, Val: 1}, {Row: 2, Col: 2, Val: 1}}),
		X: graph.Features{Dense: tensor.NewDense(3, 5)}}
	if got, want := epochWork(8, 2, g), 15*8+2*(3*64+3*8.0); got != want {
		t.Errorf("work %v, want %v", got, want)
	}
}

// MeasuredRates reads a study's cells in the results directory and in its
// budget directories, counting a cell of another budget at the protocol's
// (a 100-epoch rung's 0.1 s as 1 s of 1000 epochs: mlp's only cell), and
// leaves out other studies' cells.
func TestMeasuredRatesCountRungsAtTheProtocolsBudget(t *testing.T) {
	dir := t.TempDir()
	save := func(sub, name string, r Result) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, sub, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cell := func(study, model string) Cell {
		return Cell{Study: study, Model: model, Dataset: "d", Splits: []int{0}}
	}
	result := func(c Cell, seconds float64, epochs int) Result {
		r := Result{Cell: c, Metric: datasets.Accuracy, PerSplit: make([]SplitResult, 1), Epochs: epochs}
		r.Seconds = seconds
		return r
	}
	protocol := train.DefaultOptions().Epochs
	save("search", "a.json", result(cell("search", "gcn"), 1, protocol))
	save(filepath.Join("epochs100-patience100", "search"), "b.json", result(cell("search", "mlp"), 100/float64(protocol), 100))
	save("main", "c.json", result(cell("main", "mlp"), 50, protocol))
	save("main", "d.json", result(cell("main", "gcn"), 50, protocol))
	rn := &Runner{Dir: dir, Graphs: NewGraphCache(func(string) (*graph.Graph, error) { return nil, errors.New("no data") })}
	got := rn.MeasuredRates("search")
	if len(got) != 2 {
		t.Fatalf("rates %v, want gcn's and mlp's", got)
	}
	for _, m := range []string{"gcn", "mlp"} {
		work := cellWork(models.NewRegistry(), cell("search", m), nil)
		if want := 1 / work; math.Abs(got[m]-want) > 1e-9*want {
			t.Errorf("%s's rate %v, want %v: 1 s a split of the protocol's budget", m, got[m], want)
		}
	}
	if main := rn.MeasuredRates("main"); len(main) != 2 || main["gcn"] <= 0 {
		t.Errorf("the main study's rates %v, want gcn's and mlp's", main)
	}
}
