package studies

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestAnchorVerdict: the verdict says every anchor holds only when each has
// all its splits and is within the tolerance; an anchor 2.5 points short, or
// one with splits missing, is named as such and the claim is not made.
func TestAnchorVerdict(t *testing.T) {
	row := func(model, dataset string, pub, mean float64, splits int) anchorRow {
		return anchorRow{anchor: anchor{Model: model, Dataset: dataset, Published: pub}, Splits: splits, Mean: mean}
	}
	cases := []struct {
		name       string
		rows       []anchorRow
		want, deny []string
	}{
		{"all hold", []anchorRow{row("gcn", "minesweeper", 89.75, 88.0, 10), row("sage", "minesweeper", 93.51, 94.1, 10)},
			[]string{"every anchor holds", "gcn on minesweeper (88.00 against 89.75)"}, []string{"not every"}},
		{"one short", []anchorRow{row("gcn", "minesweeper", 89.75, 88.0, 10), row("gcn", "tolokers", 83.64, 81.14, 10)},
			[]string{"**Verdict:** not every anchor holds. Within 2 points: gcn on minesweeper", "More than 2 points away: gcn on tolokers (81.14 against 83.64, -2.50)."},
			[]string{"every anchor holds:", "yet"}},
		{"one pending", []anchorRow{row("gcn", "minesweeper", 89.75, 89.0, 10), row("sage", "minesweeper", 93.51, 93.4, 3)},
			[]string{"**Verdict:** not every anchor is finished yet. Within 2 points: gcn on minesweeper", "Not finished: sage on minesweeper (3 of 10 splits)."},
			[]string{"every anchor holds", "not every anchor holds"}},
		{"one short, one pending", []anchorRow{row("gcn", "tolokers", 83.64, 80.0, 10), row("sage", "minesweeper", 93.51, 93.4, 3)},
			[]string{"**Verdict:** not every anchor holds. More than 2 points away: gcn on tolokers", "Not finished: sage on minesweeper"},
			[]string{"every anchor holds:", "finished yet"}},
	}
	for _, c := range cases {
		v := anchorVerdict(c.rows, 10)
		for _, w := range c.want {
			if !strings.Contains(v, w) {
				t.Errorf("%s: verdict lacks %q:\n%s", c.name, w, v)
			}
		}
		for _, d := range c.deny {
			if strings.Contains(v, d) {
				t.Errorf("%s: verdict says %q:\n%s", c.name, d, v)
			}
		}
	}
}

// TestAnchorsPlanCountsCells: the anchors are plain cells that workers claim
// whole, so the plan counts cells (no unit of its own, no footnote) and
// prices each cell left at its splits left, one cost per cell, so that
// --workers shares out cells, not splits.
func TestAnchorsPlanCountsCells(t *testing.T) {
	opt := fairOptions(t, t.TempDir())
	opt.Only, opt.Datasets, opt.Models = []string{anchorsName}, nil, nil
	r, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	plan := r.Plan()
	if len(plan) != 1 {
		t.Fatalf("plan %+v, want one entry", plan)
	}
	e, n := plan[0], len(anchors())
	if e.Study != anchorsName || e.Unit != "" || e.Shared || e.Cells != n || e.Done != 0 || e.Splits != 2*n {
		t.Fatalf("plan %+v, want %d cells of 2 splits left, counted as cells", e, n)
	}
	if len(e.Costs) != n {
		t.Fatalf("%d costs, want one per cell (%d)", len(e.Costs), n)
	}
	sum := 0.0
	for _, c := range e.Costs {
		if c != e.Costs[0] || c <= 0 {
			t.Errorf("costs %v, want %d equal positive costs", e.Costs, n)
		}
		sum += c
	}
	if math.Abs(sum-e.EstSeconds) > 1e-9*sum {
		t.Errorf("costs sum to %g, the estimate is %g", sum, e.EstSeconds)
	}
}

// TestAnchorsNotSaved: with no anchor cell complete, the section says
// "nothing saved" only when no split is trained either; splits finished by
// an interrupted run are counted, not hidden.
func TestAnchorsNotSaved(t *testing.T) {
	if s := anchorsNotSaved(0, 30); !strings.Contains(s, "Nothing saved yet") {
		t.Errorf("no split trained: %q", s)
	}
	s := anchorsNotSaved(2, 30)
	if strings.Contains(s, "Nothing saved") || !strings.Contains(s, "2 of its 30 splits are trained") {
		t.Errorf("two splits trained: %q", s)
	}
}

// --datasets and --models keep the anchors on their datasets and models
// only; the reports (the full plan) keep all three.
func TestAnchorCellsFollowDatasetsAndModels(t *testing.T) {
	own := t.TempDir() // an existing path stands for a --data graph
	for _, c := range []struct {
		name             string
		datasets, models []string
		want             []string
	}{
		{"all", nil, nil, []string{"gcn/minesweeper", "gcn/tolokers", "sage/minesweeper"}},
		{"a dataset", []string{"tolokers"}, nil, []string{"gcn/tolokers"}},
		{"a model", nil, []string{"sage"}, []string{"sage/minesweeper"}},
		{"both", []string{"minesweeper"}, []string{"gcn"}, []string{"gcn/minesweeper"}},
		{"none of the anchors' datasets", []string{"texas"}, nil, nil},
		{"an own graph beside them", []string{own}, nil, []string{"gcn/minesweeper", "gcn/tolokers", "sage/minesweeper"}},
		{"an own graph alone", []string{own}, nil, nil},
	} {
		p := &plan{opt: Options{Datasets: c.datasets, Models: c.models, PathsOnly: c.name == "an own graph alone"}, splits: []int{0}}
		var got []string
		for _, cell := range anchorCells(p) {
			got = append(got, cell.Model+"/"+cell.Dataset)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: anchors %v, want %v", c.name, got, c.want)
		}
		if n := len(anchorCells(p.fullPlan())); n != len(anchors()) {
			t.Errorf("%s: the full plan has %d anchors, want all %d", c.name, n, len(anchors()))
		}
	}
}

// TestAnchorTableShowsCellsInProgress: a saved cell shows its mean and
// difference; a cell in progress its finished splits, marked, with no mean
// (one split is not the anchor's number), and the verdict counts them.
func TestAnchorTableShowsCellsInProgress(t *testing.T) {
	rows := []anchorRow{
		{anchor: anchor{Model: "gcn", Dataset: "minesweeper", Published: 89.75}, Splits: 10, Mean: 90.01, Std: 0.5},
		{anchor: anchor{Model: "gcn", Dataset: "tolokers", Published: 83.64}, Splits: 1, InProgress: true, Mean: math.NaN(), Std: math.NaN()},
		{anchor: anchor{Model: "sage", Dataset: "minesweeper", Published: 93.51}, Mean: math.NaN(), Std: math.NaN()},
	}
	want := [][]string{
		{"gcn", "minesweeper", "90.01 ± 0.50", "10", "89.75", "+0.26"},
		{"gcn", "tolokers", "—", "1 (in progress)", "83.64", "—"},
		{"sage", "minesweeper", "—", "0", "93.51", "—"},
	}
	got := anchorTableRows(rows)
	for i := range want {
		if i >= len(got) || !slices.Equal(got[i], want[i]) {
			t.Errorf("row %d: %q, want %q", i, got[min(i, len(got)-1)], want[i])
		}
	}
	if v := anchorVerdict(rows, 10); !strings.Contains(v, "Not finished: gcn on tolokers (1 of 10 splits); sage on minesweeper (0 of 10 splits).") {
		t.Errorf("verdict %q does not count the split in progress", v)
	}
}

// TestAnchorsPlanPricesFromASavedAnchor: once an anchor cell is saved, the
// cells left are priced from its recorded seconds per unit of work (with
// its evaluation epochs and load), not from the bench's epoch: with GCN on
// Minesweeper saved at 10,000 s for its 10 splits, GraphSAGE there (the
// same width and depth on the same graph, with no rate of its own) is
// estimated at 10,000 s too, and GCN on Tolokers at the work's ratio.
func TestAnchorsPlanPricesFromASavedAnchor(t *testing.T) {
	const name = "gcn__minesweeper__preset=platonov.json"
	rel := filepath.Join("epochs1000-patience1000", anchorsName, name)
	b, err := os.ReadFile(filepath.Join("..", "results", rel))
	if err != nil {
		t.Skipf("the committed anchor cell: %v", err)
	}
	var saved map[string]any
	if err := json.Unmarshal(b, &saved); err != nil {
		t.Fatal(err)
	}
	saved["seconds"] = 10000.0
	results := t.TempDir()
	b, err = json.Marshal(saved)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(filepath.Join(results, rel)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(results, rel), b, 0o644); err != nil {
		t.Fatal(err)
	}
	opt := fairOptions(t, results)
	opt.Only, opt.Datasets, opt.Models, opt.Quick, opt.Splits = []string{anchorsName}, nil, nil, false, nil
	r, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	plan := r.Plan()
	if len(plan) != 1 || plan[0].Done != 1 {
		t.Fatalf("plan %+v, want the anchors with GCN on Minesweeper saved", plan)
	}
	e := plan[0]
	if got := e.ByDataset["minesweeper"]; math.Abs(got-10000) > 1e-6 {
		t.Errorf("GraphSAGE on Minesweeper: %v s left, want the saved GCN's 10000 s", got)
	}
	mine, tolo := anchorWork(t, r, "minesweeper"), anchorWork(t, r, "tolokers")
	if got, want := e.ByDataset["tolokers"], 10000*tolo/mine; math.Abs(got-want) > 1e-6*want {
		t.Errorf("GCN on Tolokers: %v s left, want %v (10000 s × the work's ratio)", got, want)
	}
	if e.ByModel["sage"] != e.ByDataset["minesweeper"] || e.ByModel["gcn"] != e.ByDataset["tolokers"] || len(e.ByModel) != 2 {
		t.Errorf("by model %v: want GraphSAGE's Minesweeper and GCN's Tolokers", e.ByModel)
	}
	if math.Abs(e.EstSeconds-e.ByDataset["minesweeper"]-e.ByDataset["tolokers"]) > 1e-6 || len(e.Costs) != 2 {
		t.Errorf("estimate %v, costs %v: want the two datasets' sum, one cost per cell left", e.EstSeconds, e.Costs)
	}
}

// anchorWork is an epoch's work of Platonov et al.'s setting (512 wide, 3
// blocks) on a dataset, as experiments' estimator counts it.
func anchorWork(t *testing.T, r *Reproduction, ds string) float64 {
	t.Helper()
	g, err := r.p.runner.Graph(ds)
	if err != nil {
		t.Fatal(err)
	}
	x := g.X.Cols() * g.N
	if g.X.Sparse != nil {
		x = g.X.Sparse.NNZ()
	}
	const h = 512.0
	return float64(x)*h + 3*(float64(g.N)*h*h+float64(g.Adj.NNZ())*h)
}
