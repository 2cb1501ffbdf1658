package experiments

import (
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
)

// TestSearchPlanPricesRungsAtTheirBudget checks a search's plan against the
// cells of the same search already trained on a graph of the same size:
// every rung of the new search is estimated at the seconds per split its
// rung measured (the median over the rung's cells, each divided by its
// configuration's work, times the mean work of the search's points: the
// rung's survivors are not known yet) times the rung's splits,
// not rescaled by the rung's share of the protocol's epochs a second time
// (which priced a 5-epoch rung at a third of its measured time here, and
// the fair study's 37-epoch first rungs at 1/27), but for the splits that
// continue the previous rung's, priced at their epochs beyond it (split 0
// of rung 2 at 4 of its 9 epochs); and the final cell, which here is the
// last rung's cell, is not counted a second time.
func TestSearchPlanPricesRungsAtTheirBudget(t *testing.T) {
	root := t.TempDir()
	rn := &Runner{Dir: root, Threads: 1}
	done := toySearch(t, "mlp", searchGraph(t, false))
	runSearch(t, done, rn)
	next := toySearch(t, "mlp", searchGraph(t, false)) // same size, another dataset key
	plan, err := next.Plan(rn)
	if err != nil {
		t.Fatal(err)
	}
	rungs := next.rungsOf(t)
	reg := models.NewRegistry()
	graphOf := func(c Cell) *graph.Graph {
		g, err := rn.graphCache().Graph(c.Dataset)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	points, err := next.Points()
	if err != nil {
		t.Fatal(err)
	}
	if len(plan) != len(rungs)+1 {
		t.Fatalf("plan has %d rows for %d rungs and the final cell", len(plan), len(rungs))
	}
	for i, r := range rungs {
		dir := BudgetDir(root, r.Epochs, next.RungPatience(r.Epochs))
		var perSplit []float64
		scanSaved(dir, func(_ string, res *Result) {
			perSplit = append(perSplit, res.Seconds/float64(len(res.PerSplit))/cellWork(reg, res.Cell, graphOf(res.Cell)))
		})
		if len(perSplit) == 0 {
			t.Fatalf("rung %d: no cells saved under %s", i+1, dir)
		}
		sort.Float64s(perSplit)
		var work float64
		for _, pt := range points {
			c := next.cell(pt, next.Splits[:r.Splits])
			work += cellWork(reg, c, graphOf(c)) / float64(len(points))
		}
		want := perSplit[len(perSplit)/2] * work * float64(r.Trials*r.Splits)
		if i > 0 { // the first splits continue the previous rung's: priced at their epochs beyond it
			prev := rungs[i-1]
			want *= 1 - float64(min(prev.Splits, r.Splits))/float64(r.Splits)*float64(prev.Epochs)/float64(r.Epochs)
		}
		row := plan[i]
		if row.SplitsLeft != r.Trials*r.Splits || math.Abs(row.EstSeconds-want) > 1e-6*want {
			t.Errorf("rung %d (%d epochs, dir %s): %d splits left, estimate %.6f s; want %d and %.6f s (its measured split times %v)",
				i+1, r.Epochs, filepath.Base(dir), row.SplitsLeft, row.EstSeconds, r.Trials*r.Splits, want, perSplit)
		}
	}
	if f := plan[len(plan)-1]; f.SplitsLeft != 0 || f.EstSeconds != 0 {
		t.Errorf("final row %+v: the last rung trains the whole final cell, nothing is left beside it", f)
	}
}

// TestSearchPlanCountsUncheckedWhenTheDataIsGone: planning a finished
// search where its graph can no longer be opened counts the first rung's
// saved cells as unchecked (and left), not as done: their keys cannot be
// checked against data that is not there.
func TestSearchPlanCountsUncheckedWhenTheDataIsGone(t *testing.T) {
	root := t.TempDir()
	data := searchGraph(t, false)
	s := toySearch(t, "mlp", data)
	runSearch(t, s, &Runner{Dir: root, Threads: 1})
	plan, err := s.Plan(&Runner{Dir: root, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if plan[0].Done != plan[0].Trials || plan[0].Unchecked != 0 {
		t.Fatalf("with the data: first rung %+v, want all %d trials done, none unchecked", plan[0], plan[0].Trials)
	}
	if err := os.RemoveAll(data); err != nil {
		t.Fatal(err)
	}
	plan, err = s.Plan(&Runner{Dir: root, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r := plan[0]; r.Done != 0 || r.Unchecked != r.Trials || r.SplitsLeft != r.Trials*r.Splits {
		t.Errorf("without the data: first rung %+v, want its %d trials unchecked and left", r, r.Trials)
	}
}

// TestSearchPlanPricesFromTheSearchReference: in a results directory with
// no saved cell, a search's rungs are priced from SearchReferenceRates when
// given (the rates of searches' trials), not from ReferenceRates (the
// presets'), each rung at its share of the protocol's epochs.
func TestSearchPlanPricesFromTheSearchReference(t *testing.T) {
	s := toySearch(t, "mlp", searchGraph(t, false))
	estimate := func(rn *Runner) float64 {
		t.Helper()
		plan, err := s.Plan(rn)
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		for _, row := range plan {
			sum += row.EstSeconds
		}
		return sum
	}
	presets := map[string]float64{"mlp": 1e-6}
	alone := estimate(&Runner{Dir: t.TempDir(), ReferenceRates: presets})
	both := estimate(&Runner{Dir: t.TempDir(), ReferenceRates: presets, SearchReferenceRates: map[string]float64{"mlp": 3e-6}})
	if alone <= 0 || math.Abs(both-3*alone) > 1e-9*both {
		t.Errorf("estimate %v s from the search's reference (3e-6), want 3 times the %v s from the presets' (1e-6)", both, alone)
	}
}

// TestSearchPlanPricesContinuedSplits: a rung's splits that continue where
// the previous rung ended them are priced at their epochs beyond it, and
// so are the final cell's that continue the last rung's (here a final of 20
// epochs after a last rung of 15 on all 3 splits: a quarter of its time);
// a search from scratch prices every split whole.
func TestSearchPlanPricesContinuedSplits(t *testing.T) {
	data := searchGraph(t, false)
	plan := func(fromScratch bool) []SearchPlanRow {
		s := toySearch(t, "mlp", data)
		s.Epochs, s.Patience, s.FromScratch = 20, 20, fromScratch
		rows, err := s.Plan(&Runner{Dir: t.TempDir(), ReferenceRates: map[string]float64{"mlp": 1e-6}})
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	carried, scratch := plan(false), plan(true)
	want := []float64{1, 1 - 1.0/2*5/9, 1 - 2.0/3*9/15, 1 - 15.0/20}
	for i, w := range want {
		if got := carried[i].EstSeconds / scratch[i].EstSeconds; math.Abs(got-w) > 1e-9 || scratch[i].EstSeconds <= 0 {
			t.Errorf("%s: priced at %v of its time from scratch (%v s), want %v", carried[i].Name, got, scratch[i].EstSeconds, w)
		}
	}
}
