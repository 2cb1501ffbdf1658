package experiments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pcgcn/pcgcn/search"
	"github.com/pcgcn/pcgcn/train"
)

// searchGraph writes a 90-node three-class graph with four splits in the
// user format. The test nodes (every fifth) are the same in every split;
// with flipTest their labels are shifted by one class, which no choice and
// no validation score of a search may notice.
func searchGraph(t *testing.T, flipTest bool) string {
	t.Helper()
	const n = 90
	var edges, labels, features, splits strings.Builder
	x := uint64(12345)
	noise := func() float64 { x = x*6364136223846793005 + 1442695040888963407; return float64(x>>11)/(1<<53) - 0.5 }
	for i := range n {
		class := i % 3
		label := class
		if flipTest && i%5 == 4 {
			label = (class + 1) % 3
		}
		fmt.Fprintf(&labels, "%d\n", label)
		f := []float64{noise(), noise(), noise(), noise()}
		f[class] += 0.6
		fmt.Fprintf(&features, "%.4f,%.4f,%.4f,%.4f\n", f[0], f[1], f[2], f[3])
		fmt.Fprintf(&edges, "%d,%d\n%d,%d\n", i, (i+3)%n, i, (i+7)%n)
		for k := range 4 {
			role := "test"
			if i%5 != 4 {
				role = []string{"train", "train", "val", "val"}[(i+k)%4]
			}
			fmt.Fprintf(&splits, "%d,%d,%s\n", k, i, role)
		}
	}
	dir := filepath.Join(t.TempDir(), "toy")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string]*strings.Builder{"edges.csv": &edges, "labels.csv": &labels, "features.csv": &features, "splits.csv": &splits} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// toySearch is a search of 9 trials (rungs of 9, 3 and 1 trials on 1, 2 and
// 3 splits for 5, 9 and 15 epochs) whose last rung is its final cell.
func toySearch(t *testing.T, model, data string) *Search {
	t.Helper()
	sp, err := search.ParseSpace("lr=log:0.005:0.1", "hidden=int:4:32:log", "dropout=0:0.5")
	if err != nil {
		t.Fatal(err)
	}
	return &Search{Model: model, Dataset: data, Space: sp, Seed: 3, Splits: []int{0, 1, 2},
		Schedule: search.Schedule{Trials: 9, Eta: 3, MinSplits: 1, MaxSplits: 3, MinEpochs: 5, MaxEpochs: 15},
		Epochs:   15, Patience: 15}
}

// valScores returns every trial's validation score by rung and point, and
// the chosen point: what a search decides on.
func valScores(rep *SearchReport) map[string]float64 {
	out := map[string]float64{}
	for _, r := range rep.Rungs {
		for _, p := range r.Points {
			out[fmt.Sprintf("%d/%s", r.Index, p.ID)] = p.ValMean
		}
	}
	return out
}

func runSearch(t *testing.T, s *Search, rn *Runner) *SearchReport {
	t.Helper()
	rep, err := s.Run(context.Background(), rn)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Complete || rep.Chosen == nil || rep.Final == nil {
		t.Fatalf("search not complete after Run: %+v", rep)
	}
	return rep
}

// TestSearchDeterministic checks that the same seed gives the same points,
// the same validation scores and the same choice, whatever Jobs and Threads
// are, and
// that another seed gives other points.
func TestSearchDeterministic(t *testing.T) {
	data := searchGraph(t, false)
	a := runSearch(t, toySearch(t, "mlp", data), &Runner{Dir: t.TempDir(), Threads: 1, Jobs: 1})
	b := runSearch(t, toySearch(t, "mlp", data), &Runner{Dir: t.TempDir(), Threads: 2, Jobs: 2})
	if a.Chosen.ID != b.Chosen.ID || !reflect.DeepEqual(valScores(a), valScores(b)) || !reflect.DeepEqual(a.Final, b.Final) {
		t.Errorf("two runs of one search differ:\n%+v\n%+v", a, b)
	}
	s := toySearch(t, "mlp", data)
	p1, _ := s.Points()
	s.Seed = 4
	p2, _ := s.Points()
	if reflect.DeepEqual(p1, p2) {
		t.Error("seeds 3 and 4 drew the same points")
	}
}

// eachSavedSplit calls f with every split saved under dir (whole and
// partial files): the file's path without .json (and .partial) and the
// split's result.
func eachSavedSplit(t *testing.T, dir string, f func(name string, sr SplitResult)) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var r Result
		if err := json.Unmarshal(b, &r); err != nil {
			return err
		}
		for _, sr := range r.PerSplit {
			f(strings.TrimSuffix(strings.TrimSuffix(path, ".json"), ".partial"), sr)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// savedSplits returns every split saved under dir (whole and partial
// files) by file and split, with its validation score and wall time.
func savedSplits(t *testing.T, dir string) map[string][2]float64 {
	t.Helper()
	out := map[string][2]float64{}
	eachSavedSplit(t, dir, func(name string, sr SplitResult) {
		out[fmt.Sprintf("%s#%d", name, sr.Split)] = [2]float64{sr.Val, sr.Seconds}
	})
	return out
}

// TestSearchResumesAfterKill cancels a search in the middle of a rung (in
// the middle of a cell: its first split in the partial file) and runs it
// again: nothing saved is trained again, and the choice and every score are
// those of an uninterrupted run.
func TestSearchResumesAfterKill(t *testing.T) {
	data := searchGraph(t, false)
	whole := runSearch(t, toySearch(t, "mlp", data), &Runner{Dir: t.TempDir(), Threads: 1})
	for _, stopAt := range []int{4, 10} { // in rung 1 (one split a cell); in rung 2's first cell
		t.Run(fmt.Sprint(stopAt), func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var mu sync.Mutex
			trained := 0
			rn := &Runner{Dir: dir, Threads: 1, Extras: func(Cell, *train.Result) map[string]float64 {
				mu.Lock()
				defer mu.Unlock()
				if trained++; trained == stopAt {
					cancel()
				}
				return nil
			}}
			if _, err := toySearch(t, "mlp", data).Run(ctx, rn); !errors.Is(err, context.Canceled) {
				t.Fatalf("a cancelled search returned %v, want context.Canceled", err)
			}
			before := savedSplits(t, dir)
			if len(before) != stopAt {
				t.Fatalf("%d splits saved after the kill, want the %d trained", len(before), stopAt)
			}
			first := trained
			again := runSearch(t, toySearch(t, "mlp", data), rn)
			after := savedSplits(t, dir)
			for k, v := range before {
				if after[k] != v {
					t.Errorf("split %s saved before the kill was trained again (%v, now %v)", k, v, after[k])
				}
			}
			if got, want := trained-first, len(after)-len(before); got != want {
				t.Errorf("the resumed run trained %d splits, want the %d not saved", got, want)
			}
			if again.Chosen.ID != whole.Chosen.ID || !reflect.DeepEqual(valScores(again), valScores(whole)) || !reflect.DeepEqual(again.Final, whole.Final) {
				t.Errorf("resumed search differs from the uninterrupted one:\n%+v\n%+v", again, whole)
			}
		})
	}
}

// TestSearchSchedule checks the halving schedule in the saved cells: rung
// sizes, splits and epoch budgets per rung and their directories, rung 2
// not ready before rung 1 is complete, and the plan before and after.
func TestSearchSchedule(t *testing.T) {
	data := searchGraph(t, false)
	s := toySearch(t, "mlp", data)
	root := t.TempDir()
	rn := &Runner{Dir: root, Threads: 1}
	if _, err := s.RungCells(rn, 1); !errors.Is(err, ErrRungNotReady) {
		t.Errorf("rung 2 before rung 1 ran: %v, want ErrRungNotReady", err)
	}
	plan, err := s.Plan(rn)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan) != 4 || !plan[0].Known || plan[1].Known || plan[0].SplitsLeft != 9 || plan[1].SplitsLeft != 6 || plan[3].Name != "final" {
		t.Errorf("plan before the search: %+v", plan)
	}
	rep := runSearch(t, s, rn)
	want := []struct{ trials, splits, epochs, patience int }{{9, 1, 5, 5}, {3, 2, 9, 9}, {1, 3, 15, 15}}
	for i, w := range want {
		r := rep.Rungs[i]
		if r.Trials != w.trials || r.Splits != w.splits || r.Epochs != w.epochs || r.Patience != w.patience || r.Done != w.trials || len(r.Points) != w.trials {
			t.Errorf("rung %d: %+v, want %+v", i+1, r, w)
		}
		cells, err := s.RungCells(rn, i)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(root, fmt.Sprintf("epochs%d-patience%d", w.epochs, w.patience))
		for _, c := range cells {
			if len(c.Splits) != w.splits || !strings.HasPrefix(s.RungRunner(rn, s.rungsOf(t)[i]).Path(c), dir) {
				t.Errorf("rung %d cell %s: splits %v, path %s", i+1, c.Key(), c.Splits, s.RungRunner(rn, s.rungsOf(t)[i]).Path(c))
			}
			r := s.RungRunner(rn, s.rungsOf(t)[i]).LoadExact(c)
			if r == nil || r.Epochs != w.epochs || len(r.PerSplit) != w.splits {
				t.Fatalf("rung %d cell %s not saved with its budget: %+v", i+1, c.Key(), r)
			}
			for _, sr := range r.PerSplit {
				if sr.Epochs > w.epochs {
					t.Errorf("rung %d: a split ran %d epochs, budget %d", i+1, sr.Epochs, w.epochs)
				}
			}
		}
		promoted := 0
		for _, p := range r.Points {
			if p.Promoted {
				promoted++
			}
		}
		if next := 1; i+1 < len(want) {
			next = want[i+1].trials
			if promoted != next {
				t.Errorf("rung %d promoted %d, want %d", i+1, promoted, next)
			}
		}
	}
	if rep.Budget.SplitEpochs != 9*1*5+3*2*9+1*3*15 || rep.Budget.FinalSplitEpochs != 0 || rep.Budget.SplitEpochsDone != rep.Budget.SplitEpochs {
		t.Errorf("budget %+v", rep.Budget)
	}
	if rep.Budget.Seconds <= 0 || rep.Budget.EpochsTrained <= 0 {
		t.Errorf("no time or epochs recorded: %+v", rep.Budget)
	}
	plan, err = s.Plan(rn)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range plan {
		if !row.Known || row.SplitsLeft != 0 || row.Done != row.Trials {
			t.Errorf("plan after the search: %+v", row)
		}
	}
}

// rungsOf returns the search's rungs.
func (s *Search) rungsOf(t *testing.T) []search.Rung {
	t.Helper()
	rungs, err := s.Schedule.Rungs()
	if err != nil {
		t.Fatal(err)
	}
	return rungs
}

// TestSearchFinalOnTheProtocolBudget checks a search whose final cell is
// not its last rung's: the chosen point is trained again on every split with
// the protocol's budget, under its own directory.
func TestSearchFinalOnTheProtocolBudget(t *testing.T) {
	data := searchGraph(t, false)
	s := toySearch(t, "mlp", data)
	s.Splits, s.Epochs, s.Patience = []int{0, 1, 2, 3}, 20, 10
	rn := &Runner{Dir: t.TempDir(), Threads: 1}
	rep := runSearch(t, s, rn)
	if rep.Final.Splits != 4 || rep.Final.Epochs != 20 || rep.Final.Patience != 10 || rep.Budget.FinalSplitEpochs != 4*20 {
		t.Errorf("final %+v, budget %+v", rep.Final, rep.Budget)
	}
	if p := s.RungPatience(15); p != 10 { // the protocol's patience
		t.Errorf("rung patience %d, want 10", p)
	}
	if p := s.RungPatience(5); p != 5 { // at most the rung's epochs
		t.Errorf("rung patience %d, want 5", p)
	}
	if _, err := os.Stat(filepath.Join(rn.Dir, "epochs20-patience10", SearchStudy)); err != nil {
		t.Errorf("final cell not under its budget's directory: %v", err)
	}
}

// TestSearchBudgetsEqualAcrossModels checks that two models given the same
// trials have the same budget in split-epochs, planned and spent.
func TestSearchBudgetsEqualAcrossModels(t *testing.T) {
	data := searchGraph(t, false)
	rn := &Runner{Dir: t.TempDir(), Threads: 1}
	mlp := runSearch(t, toySearch(t, "mlp", data), rn)
	gcnSearch := toySearch(t, "gcn", data)
	gcnSearch.Space, _ = search.ParseSpace("lr=log:0.005:0.1", "hidden=int:4:32:log", "weight_decay=log:1e-5:1e-2", "layers=int:1:2")
	gcn := runSearch(t, gcnSearch, rn)
	if mlp.Budget.SplitEpochs != gcn.Budget.SplitEpochs || mlp.Budget.SplitEpochsDone != gcn.Budget.SplitEpochsDone ||
		mlp.Budget.Trials != gcn.Budget.Trials || mlp.Budget.Rungs != gcn.Budget.Rungs {
		t.Errorf("budgets differ: mlp %+v, gcn %+v", mlp.Budget, gcn.Budget)
	}
	c1, _ := toySearch(t, "mlp", data).Schedule.Cost()
	c2, _ := gcnSearch.Schedule.Cost()
	if c1 != c2 || c1 != mlp.Budget.SplitEpochs {
		t.Errorf("costs %d and %d, report %d", c1, c2, mlp.Budget.SplitEpochs)
	}
}

// TestSearchIgnoresTestLabels changes the labels of the test nodes (the
// same nodes in every split): no validation score of any trial and no
// choice may change; only the final cell's test score may.
func TestSearchIgnoresTestLabels(t *testing.T) {
	for _, model := range []string{"mlp", "pcgcn"} {
		t.Run(model, func(t *testing.T) {
			s := toySearch(t, model, searchGraph(t, false))
			if model == "pcgcn" {
				s.Space, _ = search.ParseSpace("lr=log:0.005:0.1", "lambda=log:0.1:10", "beta=-5:5")
			}
			a := runSearch(t, s, &Runner{Dir: t.TempDir(), Threads: 1})
			s.Dataset = searchGraph(t, true)
			b := runSearch(t, s, &Runner{Dir: t.TempDir(), Threads: 1})
			if a.Chosen.ID != b.Chosen.ID || !reflect.DeepEqual(valScores(a), valScores(b)) ||
				a.Final.ValMean != b.Final.ValMean || a.Final.ValStd != b.Final.ValStd {
				t.Errorf("test labels changed a choice or a validation score:\n%+v\n%+v", a, b)
			}
			if a.Final.TestMean == b.Final.TestMean {
				t.Errorf("the test score did not change (%.2f) although every test label did: the test is vacuous", a.Final.TestMean)
			}
		})
	}
}

// TestSearchValidate checks the errors before anything is trained.
func TestSearchValidate(t *testing.T) {
	data := searchGraph(t, false)
	tests := []struct {
		name string
		edit func(s *Search)
		want string
	}{
		{"splits", func(s *Search) { s.Splits = []int{0, 1} }, "only 2 splits"},
		{"fixed and searched", func(s *Search) { s.Fixed = map[string]string{"lr": "0.01"} }, "both searched and fixed"},
		{"out of range", func(s *Search) { s.Space, _ = search.ParseSpace("dropout=0.5:1.5") }, "dropout"},
		{"unknown model", func(s *Search) { s.Model = "nosuch" }, "nosuch"},
		{"schedule", func(s *Search) { s.Schedule.Eta = 1 }, "eta"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := toySearch(t, "mlp", data)
			tc.edit(s)
			err := s.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestSearchWorkers runs a search as three workers sharing one results
// directory through the claims, rung by rung: every cell is trained once,
// and the report is the one a single Run gives.
func TestSearchWorkers(t *testing.T) {
	data := searchGraph(t, false)
	whole := runSearch(t, toySearch(t, "mlp", data), &Runner{Dir: t.TempDir(), Threads: 1})
	dir := t.TempDir()
	var mu sync.Mutex
	trained := map[string]int{}
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		rn := &Runner{Dir: dir, Threads: 1, Lease: time.Minute, Extras: func(c Cell, r *train.Result) map[string]float64 {
			mu.Lock()
			defer mu.Unlock()
			trained[fmt.Sprintf("%s#%d#%d", c.Key(), len(c.Splits), r.Split)]++
			return nil
		}}
		wg.Go(func() {
			errs[i] = toySearch(t, "mlp", data).Work(context.Background(), rn, WorkOptions{Poll: 10 * time.Millisecond})
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for k, n := range trained {
		if n > 1 {
			t.Errorf("%s trained %d times", k, n)
		}
	}
	rn := &Runner{Dir: dir, Threads: 1}
	rep, err := toySearch(t, "mlp", data).Report(rn)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Complete || rep.Chosen.ID != whole.Chosen.ID || !reflect.DeepEqual(valScores(rep), valScores(whole)) || !reflect.DeepEqual(rep.Final, whole.Final) {
		t.Errorf("the workers' search differs from one run's:\n%+v\n%+v", rep, whole)
	}
	if err := toySearch(t, "mlp", data).Work(context.Background(), rn, WorkOptions{Shard: Shard{Index: 0, Count: 2}}); err == nil {
		t.Error("a search worker took a static shard")
	}
}

// TestSearchRecordsCPUTime: a search run one cell at a time records each
// split's CPU time, and the report sums it; with several cells at once the
// process's CPU is theirs together and none is recorded.
func TestSearchRecordsCPUTime(t *testing.T) {
	data := searchGraph(t, false)
	for _, jobs := range []int{1, 2} {
		rep := runSearch(t, toySearch(t, "mlp", data), &Runner{Dir: t.TempDir(), Threads: 1, Jobs: jobs})
		if jobs == 1 && rep.Budget.CPUSeconds <= 0 {
			t.Errorf("jobs 1: CPU time %v, want > 0", rep.Budget.CPUSeconds)
		}
		if jobs > 1 && rep.Budget.CPUSeconds != 0 {
			t.Errorf("jobs %d: CPU time %v recorded for cells trained together", jobs, rep.Budget.CPUSeconds)
		}
	}
}

// TestSearchWithPreset: with WithPreset the model's preset takes the last
// point's place (the others are the same draws), its rung-0 cell carries
// no values but the fixed ones, and it is raced like any other point.
func TestSearchWithPreset(t *testing.T) {
	data := searchGraph(t, false)
	plain := toySearch(t, "mlp", data)
	withPreset := toySearch(t, "mlp", data)
	withPreset.WithPreset = true
	a, err := plain.Points()
	if err != nil {
		t.Fatal(err)
	}
	b, err := withPreset.Points()
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != len(a) || !reflect.DeepEqual(a[:len(a)-1], b[:len(b)-1]) || b[len(b)-1].ID != PresetPoint().ID || len(b[len(b)-1].Values) != 0 {
		t.Fatalf("points with the preset:\n%v\nwithout:\n%v", b, a)
	}
	rn := &Runner{Dir: t.TempDir(), Threads: 1, Jobs: 1}
	rep := runSearch(t, withPreset, rn)
	found := false
	for _, p := range rep.Rungs[0].Points {
		if p.ID == PresetPoint().ID {
			found = p.Saved
		}
	}
	if !found {
		t.Errorf("the preset's rung-0 trial is not saved: %+v", rep.Rungs[0].Points)
	}
	cells, err := withPreset.RungCells(rn, 0)
	if err != nil {
		t.Fatal(err)
	}
	if last := cells[len(cells)-1]; last.Sets != nil {
		t.Errorf("the preset's cell sets %v", last.Sets)
	}
}

// countStates counts the end states under a search's carry directory.
func countStates(t *testing.T, rn *Runner) int {
	t.Helper()
	n := 0
	filepath.WalkDir(CarryDir(rn), func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".state") {
			n++
		}
		return nil
	})
	return n
}

// savedScores returns every split saved under dir by cell file (relative)
// and split: its scores, epochs and the epochs it continued.
func savedScores(t *testing.T, dir string) map[string][5]float64 {
	t.Helper()
	out := map[string][5]float64{}
	eachSavedSplit(t, dir, func(name string, sr SplitResult) {
		rel, _ := filepath.Rel(dir, name+".json")
		out[fmt.Sprintf("%s#%d", rel, sr.Split)] = [5]float64{sr.Val, sr.Test, float64(sr.BestEpoch), float64(sr.Epochs), float64(sr.ContinuedEpochs)}
	})
	return out
}

// TestSearchContinuesRungs: a search's promoted trials continue the
// previous rung's splits where it ended them (rung 1's 5 epochs on split 0
// in rung 2, rung 2's 9 on splits 0 and 1 in the last rung), with every
// score, epoch count and the choice of the same search trained from
// scratch; the report counts each epoch once; the end states of the trials
// a complete rung did not promote are removed, and none is left at the end.
func TestSearchContinuesRungs(t *testing.T) {
	data := searchGraph(t, false)
	scratch := toySearch(t, "mlp", data)
	scratch.FromScratch = true
	scratchRunner := &Runner{Dir: t.TempDir(), Threads: 1}
	a := runSearch(t, scratch, scratchRunner)
	if n := countStates(t, scratchRunner); n != 0 {
		t.Errorf("a search from scratch kept %d end states", n)
	}

	s := toySearch(t, "mlp", data)
	rn := &Runner{Dir: t.TempDir(), Threads: 1}
	cells, err := s.RungCells(rn, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RungRunner(rn, s.rungsOf(t)[0]).Run(cells); err != nil {
		t.Fatal(err)
	}
	if n := countStates(t, rn); n != 9 {
		t.Errorf("after rung 1: %d end states, want one for each of its 9 trials", n)
	}
	s.pruneCarry(rn)
	if n := countStates(t, rn); n != 3 {
		t.Errorf("rung 1 complete: %d end states, want the 3 promoted trials'", n)
	}
	// a write of an end state that a killed process left half done
	cells, _ = s.RungCells(rn, 1)
	half := carryPath(CarryDir(rn), cells[0], 0)
	half = filepath.Join(filepath.Dir(half), "."+filepath.Base(half)+".tmp-123")
	if err := os.WriteFile(half, []byte("half a state"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := runSearch(t, s, rn)
	if n := countStates(t, rn); n != 0 {
		t.Errorf("%d end states left after the search", n)
	}
	if _, err := os.Stat(half); !os.IsNotExist(err) {
		t.Errorf("the half-written state outlived the search: %v", err)
	}
	if a.Chosen.ID != b.Chosen.ID || !reflect.DeepEqual(valScores(a), valScores(b)) || !reflect.DeepEqual(a.Final, b.Final) {
		t.Errorf("the search continuing its rungs differs from the one from scratch:\n%+v\n%+v", b, a)
	}
	got, want := savedScores(t, rn.Dir), savedScores(t, scratchRunner.Dir)
	continued := 0
	for k, w := range want {
		g := got[k]
		continued += int(g[4])
		if w[4] != 0 || [4]float64(g[:4]) != [4]float64(w[:4]) {
			t.Errorf("%s: continuing %v, from scratch %v", k, g, w)
		}
		rung2 := strings.HasPrefix(k, "epochs9-")
		last := strings.HasPrefix(k, "epochs15-")
		if e := map[bool]float64{true: 5, false: 9}[rung2]; (rung2 && strings.HasSuffix(k, "#0") || last && !strings.HasSuffix(k, "#2")) != (g[4] == e) {
			t.Errorf("%s continued %v epochs", k, g[4])
		}
	}
	if len(got) != len(want) || continued != 3*5+2*9 {
		t.Errorf("%d splits saved, %d epochs continued; from scratch %d, want 33 continued", len(got), continued, len(want))
	}
	if d := a.Budget.EpochsTrained - b.Budget.EpochsTrained; d != continued || b.Budget.EpochsContinued != continued || a.Budget.EpochsContinued != 0 {
		t.Errorf("the report counts %d epochs less than from scratch and %d continued (from scratch %d), want the %d continued",
			d, b.Budget.EpochsContinued, a.Budget.EpochsContinued, continued)
	}
}
