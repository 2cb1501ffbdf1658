package experiments

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

func TestRunnerSavesAndResumes(t *testing.T) {
	var log bytes.Buffer
	rn := &Runner{Dir: t.TempDir(), Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true},
		Threads: 1, Epochs: 5, Patience: 5, Progress: &log, Outputs: testOutputs}
	cells := []Cell{
		{Study: "s", Dataset: "cornell", Model: "mlp", Splits: []int{0, 1}},
		Cell{Study: "s", Dataset: "cornell", Model: "gcn", Splits: []int{0}}.WithOpt("nodes", true),
	}
	rs, err := rn.Run(cells)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || len(rs[0].PerSplit) != 2 || rs[1].PerSplit[0].Nodes == nil {
		t.Fatalf("results %+v", rs)
	}
	if n := len(rs[1].PerSplit[0].Nodes.Test); n != 37 {
		t.Errorf("%d test nodes collected, want 37", n)
	}
	if _, err := os.Stat(rn.Path(cells[0])); err != nil {
		t.Fatal(err)
	}
	// a second run trains nothing and returns the saved results
	log.Reset()
	again, err := rn.Run(cells)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "2 of 2 cells already done") || strings.Contains(log.String(), "split 0") {
		t.Errorf("second run did not resume: %q", log.String())
	}
	if again[0].TestMean != rs[0].TestMean {
		t.Error("resumed result differs")
	}
	// a cell asking for some of the saved splits is answered by them
	changed := cells[0]
	changed.Splits = []int{1}
	if r := rn.Load(changed); r == nil || len(r.PerSplit) != 1 || !reflect.DeepEqual(r.PerSplit[0], rs[0].PerSplit[1]) ||
		r.TestMean != rs[0].PerSplit[1].Test || !slices.Equal(r.Cell.Splits, []int{1}) {
		t.Errorf("split 1 of the saved splits 0-1: %+v", r)
	}
}

func TestRunnerReportsBadCells(t *testing.T) {
	rn := &Runner{Dir: t.TempDir(), Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true}, Epochs: 2}
	_, err := rn.Run([]Cell{{Study: "s", Dataset: "cornell", Model: "nope", Splits: []int{0}}})
	if err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("unknown model: %v", err)
	}
	bad := Cell{Study: "s", Dataset: "cornell", Model: "mlp", Splits: []int{11}}
	_, err = rn.Run([]Cell{bad})
	if err == nil || !strings.Contains(err.Error(), "split 11") {
		t.Errorf("bad split: %v", err)
	}
	if ce, ok := errors.AsType[*CellError](err); !ok || ce.Cell.Key() != bad.Key() || ce.Err == nil {
		t.Errorf("bad split: %v is not the cell's CellError", err)
	}
}

func TestSavedCellWithAnotherConfigIsStale(t *testing.T) {
	rn := &Runner{Dir: t.TempDir(), Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true}, Epochs: 3, Patience: 3}
	c := Cell{Study: "s", Dataset: "texas", Model: "mlp", Splits: []int{0}, Sets: map[string]string{"hidden": "8"}}
	if _, err := rn.Run([]Cell{c}); err != nil {
		t.Fatal(err)
	}
	if rn.Load(c) == nil {
		t.Fatal("the saved cell is not found")
	}
	// the same cell saved under another configuration (as after a preset
	// change) must not be reused
	b, _ := os.ReadFile(rn.Path(c))
	var raw map[string]any
	json.Unmarshal(b, &raw)
	raw["config"].(map[string]any)["lr"] = 0.123
	b, _ = json.Marshal(raw)
	os.WriteFile(rn.Path(c), b, 0o644)
	if rn.Load(c) != nil {
		t.Error("a cell saved with another configuration was reused")
	}
}

// TestRunnerSelectsOnValidation: a Select hook gives a cell candidates,
// which Run trains, and Load reports the one with the best validation mean.
func TestRunnerSelectsOnValidation(t *testing.T) {
	rn := &Runner{Dir: t.TempDir(), Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true}, Threads: 1, Epochs: 20, Patience: 20}
	c := Cell{Study: "s", Dataset: "texas", Model: "mlp", Splits: []int{0, 1}}
	if got := rn.Candidates(c); len(got) != 1 || rn.Load(c) != nil {
		t.Fatalf("without a hook: candidates %+v", got)
	}
	rn.Select = func(c Cell, _ models.Spec, cfg models.Config) []Cell {
		if len(c.Sets) > 0 {
			return []Cell{c}
		}
		alt := c
		alt.Sets = map[string]string{"hidden": strconv.Itoa(cfg.Base().Hidden / 2)}
		return []Cell{c, alt}
	}
	cands := rn.Candidates(c)
	rs, err := rn.Run([]Cell{c})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range cands {
		if _, err := os.Stat(rn.Path(k)); err != nil {
			t.Errorf("candidate %s not saved: %v", k.Key(), err)
		}
	}
	a, b := rn.LoadExact(cands[0]), rn.LoadExact(cands[1])
	want := cands[0]
	if b.ValMean > a.ValMean {
		want = cands[1]
	}
	got := rs[0]
	if got.Selection == nil || !got.Selection.Complete || len(got.Selection.Candidates) != 2 || got.Selection.Chosen != want.Key() {
		t.Fatalf("selection %+v, want %s chosen of 2", got.Selection, want.Key())
	}
	if got.Cell.Key() != c.Key() || got.ValMean != max(a.ValMean, b.ValMean) {
		t.Errorf("selected result: cell %s val %.2f; candidates val %.2f / %.2f", got.Cell.Key(), got.ValMean, a.ValMean, b.ValMean)
	}
	// with one candidate missing the best saved one is returned, marked incomplete
	os.Remove(rn.Path(cands[1]))
	if r := rn.Load(c); r == nil || r.Selection.Complete || r.Selection.Chosen != cands[0].Key() {
		t.Errorf("incomplete selection: %+v", r)
	}
}

func TestModelRates(t *testing.T) {
	ref := map[string]float64{"gcnii": 6.45e-4, "mlp": 1.68e-5}
	rate := modelRates(map[string][]float64{"gcnii": {9, 10, 30}, "sgc": {0.1}, "gcn": {1}}, ref)
	if rate("gcnii") != 10 || rate("sgc") != 0.1 {
		t.Errorf("medians: gcnii %v sgc %v", rate("gcnii"), rate("sgc"))
	}
	if rate("gat") != 1 { // the median of the known models' medians
		t.Errorf("unknown model: %v", rate("gat"))
	}
	// with no history, the reference rate the caller gives for the model,
	// or a middle one for a model it does not know
	none := modelRates(nil, ref)
	if none("gcnii") != ref["gcnii"] || none("mlp") != ref["mlp"] {
		t.Errorf("no history: gcnii %v, mlp %v", none("gcnii"), none("mlp"))
	}
	if r := none("x"); r <= 0 || r > 1e-3 {
		t.Errorf("no history, unknown model: rate %v", r)
	}
}

// TestPlanUsesRatesOfOtherStudies checks that a model's speed measured in
// any saved cell estimates its cells in a plan that has none of its own.
func TestPlanUsesRatesOfOtherStudies(t *testing.T) {
	rn := &Runner{Dir: t.TempDir(), Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true},
		Threads: 1, Epochs: 4, Patience: 4}
	done := Cell{Study: "s", Dataset: "texas", Model: "mlp", Splits: []int{0, 1}}
	rs, err := rn.Run([]Cell{done})
	if err != nil {
		t.Fatal(err)
	}
	perSplit := rs[0].Seconds / 2
	todo := Cell{Study: "t", Dataset: "texas", Model: "mlp", Splits: []int{0, 1, 2}}
	plan := rn.Plan([]Cell{todo})
	if len(plan) != 1 || plan[0].Splits != 3 {
		t.Fatalf("plan: %+v", plan)
	}
	if got, want := plan[0].EstSeconds, 3*perSplit; math.Abs(got-want) > 1e-9*want+1e-12 {
		t.Errorf("estimate %v s, want 3 splits x %v s measured in study s", got, perSplit)
	}
}

// TestRunnerResumesInsideACell checks that the splits an interrupted run
// finished are kept: the plan leaves them out, the cell restarts at the next
// split and its summary is the one an uninterrupted run gives.
func TestRunnerResumesInsideACell(t *testing.T) {
	var log bytes.Buffer
	rn := &Runner{Dir: t.TempDir(), Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true},
		Threads: 1, Epochs: 8, Patience: 8, Progress: &log}
	c := Cell{Study: "s", Dataset: "texas", Model: "mlp", Splits: []int{0, 1, 2}}
	full, part := interrupted(t, rn, c)
	os.Remove(rn.Path(c))
	// the plan counts the split the interrupted run finished as trained
	if plan := rn.Plan([]Cell{c}); len(plan) != 1 || plan[0].Splits != 2 || plan[0].Resumed != 1 {
		t.Errorf("plan of the interrupted cell: %+v, want 2 splits left and 1 cell resumed", plan)
	}
	if n := rn.Interrupted(c); n != 1 {
		t.Errorf("Interrupted: %d splits, want the 1 of the partial file", n)
	}
	log.Reset()
	again, err := rn.Run([]Cell{c})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log.String(), "split 0\n") || !strings.Contains(log.String(), "1 of its 3 splits were saved") {
		t.Errorf("did not resume inside the cell:\n%s", log.String())
	}
	a, b := full, again[0]
	if a.TestMean != b.TestMean || a.ValMean != b.ValMean || a.TestStd != b.TestStd || len(b.PerSplit) != 3 {
		t.Errorf("resumed summary %v±%v (val %v) differs from the uninterrupted %v±%v (val %v)", b.TestMean, b.TestStd, b.ValMean, a.TestMean, a.TestStd, a.ValMean)
	}
	if _, err := os.Stat(rn.store().partialPath(c)); !os.IsNotExist(err) {
		t.Errorf("the partial file was not removed: %v", err)
	}
	// a partial saved for another configuration is ignored
	part.Config = map[string]any{"hidden": 3}
	rn.store().savePartial(&part)
	if rn.store().loadPartial(c) != nil {
		t.Error("a partial cell of another configuration was reused")
	}
}

// TestPlanUsesRateOfSameDataset checks that a cell's estimate comes from the
// same model on the same dataset when that was measured, not from the
// model's median over other datasets (presets differ per dataset).
func TestPlanUsesRateOfSameDataset(t *testing.T) {
	rn := &Runner{Dir: t.TempDir(), Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true},
		Threads: 1, Epochs: 4, Patience: 4}
	texas := Cell{Study: "s", Dataset: "texas", Model: "mlp", Splits: []int{0}}
	cornell := Cell{Study: "s", Dataset: "cornell", Model: "mlp", Splits: []int{0}}
	if _, err := rn.Run([]Cell{texas, cornell}); err != nil {
		t.Fatal(err)
	}
	// make the Cornell cell look ten times slower than Texas's, as a bigger
	// preset would be
	r := rn.LoadExact(cornell)
	r.Seconds *= 10
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(rn.Path(cornell), b); err != nil {
		t.Fatal(err)
	}
	for _, c := range []Cell{texas, cornell} {
		todo := c
		todo.Study = "t"
		todo.Splits = []int{0, 1}
		plan := rn.Plan([]Cell{todo})
		want := 2 * rn.LoadExact(c).Seconds
		if len(plan) != 1 || math.Abs(plan[0].EstSeconds-want) > 1e-9*want {
			t.Errorf("%s: plan %+v, want %v s (2 splits at its own measured rate)", c.Dataset, plan, want)
		}
	}
}

func TestRefreshRetrainsCellsOfOtherNumerics(t *testing.T) {
	var log bytes.Buffer
	rn := &Runner{Dir: t.TempDir(), Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true},
		Threads: 1, Epochs: 5, Patience: 5, Progress: &log}
	c := Cell{Study: "s", Dataset: "texas", Model: "mlp", Splits: []int{0, 1}}
	rs, err := rn.Run([]Cell{c})
	if err != nil {
		t.Fatal(err)
	}
	if rs[0].Numerics != tensor.Numerics() || Stale(rs[0]) {
		t.Fatalf("a new cell records numerics %q, want %q", rs[0].Numerics, tensor.Numerics())
	}
	// the same file as saved before cells recorded their numerics
	b, _ := os.ReadFile(rn.Path(c))
	var raw map[string]any
	json.Unmarshal(b, &raw)
	delete(raw, "numerics")
	raw["test_mean"] = -1.0 // so that a retrained cell is told apart
	b, _ = json.Marshal(raw)
	os.WriteFile(rn.Path(c), b, 0o644)

	old := rn.LoadExact(c)
	if old == nil || !Stale(old) {
		t.Fatal("a cell without numerics is not stale")
	}
	if p := rn.Plan([]Cell{c}); p[0].Done != 1 || p[0].Stale != 1 || p[0].Splits != 0 {
		t.Errorf("plan without refresh %+v: want the stale cell counted done", p[0])
	}
	// without Refresh the stale cell is kept
	if got, err := rn.Run([]Cell{c}); err != nil || got[0].TestMean != -1 {
		t.Fatalf("without refresh: %v, test mean %v: the stale cell was not kept", err, got[0].TestMean)
	}
	rn.Refresh = true
	if p := rn.Plan([]Cell{c}); p[0].Done != 0 || p[0].Stale != 1 || p[0].Splits != 2 {
		t.Errorf("plan with refresh %+v: want the stale cell left to run", p[0])
	}
	got, err := rn.Run([]Cell{c})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].TestMean != rs[0].TestMean || got[0].Numerics != tensor.Numerics() {
		t.Errorf("refreshed cell: test %v numerics %q, want %v %q", got[0].TestMean, got[0].Numerics, rs[0].TestMean, tensor.Numerics())
	}
	if saved := rn.LoadExact(c); saved == nil || Stale(saved) {
		t.Error("the refreshed cell was not saved with this build's numerics")
	}
}

func TestPartialSplitsOfOtherNumerics(t *testing.T) {
	rn := &Runner{Dir: t.TempDir(), Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true}, Threads: 1, Epochs: 5, Patience: 5}
	c := Cell{Study: "s", Dataset: "texas", Model: "mlp", Splits: []int{0, 1}}
	one := c
	one.Splits = []int{0}
	rs, err := rn.Run([]Cell{one})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		numerics string
		refresh  bool
		resumed  bool
		want     string
	}{
		{tensor.Numerics(), false, true, tensor.Numerics()},
		{tensor.Numerics(), true, true, tensor.Numerics()},
		{"", false, true, ""}, // unrecorded splits are kept, and the cell records none
		{"", true, false, tensor.Numerics()},
		{"v0-other", false, false, tensor.Numerics()},
	} {
		t.Run(fmt.Sprintf("numerics %q refresh %v", tc.numerics, tc.refresh), func(t *testing.T) {
			os.Remove(rn.Path(c))
			part := *rs[0]
			part.Cell, part.Numerics = c, tc.numerics
			part.PerSplit = []SplitResult{rs[0].PerSplit[0]}
			part.PerSplit[0].Val = -1 // marks a resumed split
			if err := rn.store().savePartial(&part); err != nil {
				t.Fatal(err)
			}
			rn.Refresh = tc.refresh
			got, err := rn.Run([]Cell{c})
			if err != nil {
				t.Fatal(err)
			}
			if resumed := got[0].PerSplit[0].Val == -1; resumed != tc.resumed || got[0].Numerics != tc.want {
				t.Errorf("partial of numerics %q, refresh %v: resumed %v numerics %q, want %v %q", tc.numerics, tc.refresh, resumed, got[0].Numerics, tc.resumed, tc.want)
			}
		})
	}
}

// failingTransport fails every request, as an unreachable network does, and
// counts them.
type failingTransport struct{ requests atomic.Int64 }

func (f *failingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	f.requests.Add(1)
	return nil, errors.New("network is unreachable")
}

// A plan over many cells of a dataset whose files are not at hand tries to
// fetch them once, not once per cell: each try goes to the network, and a
// plan of the whole paper took minutes to print without a data directory.
func TestPlanTriesAMissingDatasetOnce(t *testing.T) {
	t.Setenv(datasets.EnvDataDir, "")
	ft := &failingTransport{}
	rn := &Runner{Dir: t.TempDir(), Data: datasets.Options{CacheDir: t.TempDir(), HTTPClient: &http.Client{Transport: ft}}}
	all := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	var cells []Cell
	for _, m := range []string{"mlp", "gcn", "gat"} {
		cells = append(cells, Cell{Study: "s", Dataset: "cornell", Model: m, Splits: all})
	}
	plan := rn.Plan(cells)
	if len(plan) != 1 || plan[0].Cells != len(cells) || plan[0].Splits != 10*len(cells) {
		t.Fatalf("plan %+v, want %d cells with 10 splits left each", plan, len(cells))
	}
	// every file of Cornell is on one host, which failed at the first try
	if n := ft.requests.Load(); n != 1 {
		t.Errorf("%d download requests for %d cells, want 1", n, len(cells))
	}
	if _, err := rn.Graph("cornell"); err == nil || !strings.Contains(err.Error(), "network is unreachable") {
		t.Errorf("later load: error %v, want the first failure", err)
	}
	if n := ft.requests.Load(); n != 1 {
		t.Errorf("a later load made %d more requests, want none", n-1)
	}
}

// interrupted trains c, then saves its first split alone as the partial
// file an interrupted run leaves; it returns the full result and the
// partial one.
func interrupted(t *testing.T, rn *Runner, c Cell) (*Result, Result) {
	t.Helper()
	full, err := rn.Run([]Cell{c})
	if err != nil {
		t.Fatal(err)
	}
	part := *full[0]
	part.PerSplit = part.PerSplit[:1]
	if err := rn.store().savePartial(&part); err != nil {
		t.Fatal(err)
	}
	return full[0], part
}
