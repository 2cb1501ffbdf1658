package experiments

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// jobsCells are cells of several studies, models and datasets (a main cell
// with its two candidates, a missing-class cell, a label-rate cell with its
// random splits, a variant cell), for comparing runs with one and several jobs.
func jobsCells() []Cell {
	return []Cell{
		{Study: "main", Dataset: "cornell", Model: "gcn", Splits: []int{0, 1}},
		Cell{Study: "missing", Dataset: "texas", Model: "mlp", Splits: []int{0}}.WithOpt("drop", 1),
		Cell{Study: "labelrate", Dataset: "wisconsin", Model: "pcgcn", Splits: []int{0, 1}}.WithOpt("labels", 5),
		{Study: "ablation", Dataset: "cornell", Model: "pcgcn", Variant: "no_cl", Sets: map[string]string{"no_cl": "true"}, Splits: []int{1}},
		{Study: "main", Dataset: "texas", Model: "sgc", Splits: []int{0}},
	}
}

// TestRunnerJobsGiveTheSameResults trains the same cells one at a time and
// three at a time: every saved number must be the same, every cell saved,
// and every split reported once (run with -race, this also checks that
// cells training at once share nothing unguarded). Three threads per job
// train a cell's splits side by side (train.RunEach): the same numbers again.
func TestRunnerJobsGiveTheSameResults(t *testing.T) {
	run := func(jobs, threads int) ([]*Result, string, *Runner) {
		var log bytes.Buffer
		rn := &Runner{Dir: t.TempDir(), Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true},
			Threads: threads, Jobs: jobs, Epochs: 8, Patience: 8, Progress: &log, Prepare: testPrepare}
		rs, err := rn.Run(jobsCells())
		if err != nil {
			t.Fatalf("jobs %d: %v", jobs, err)
		}
		return rs, log.String(), rn
	}
	one, _, _ := run(1, 1)
	three, log, rn := run(3, 1)
	side, sideLog, _ := run(2, 3)
	if n, want := strings.Count(sideLog, " split "), strings.Count(log, " split "); n != want {
		t.Errorf("splits side by side: %d progress lines, want %d:\n%s", n, want, sideLog)
	}
	for i := range one {
		for _, other := range [][]*Result{three, side} {
			a, b := *one[i], *other[i]
			for k := range a.PerSplit { // wall-clock fields differ between runs
				a.PerSplit[k].Seconds, a.PerSplit[k].MsPerEpoch, a.PerSplit[k].CPUSeconds = 0, 0, 0
				b.PerSplit[k].Seconds, b.PerSplit[k].MsPerEpoch, b.PerSplit[k].CPUSeconds = 0, 0, 0
			}
			a.Seconds, a.MsPerEpoch, b.Seconds, b.MsPerEpoch = 0, 0, 0, 0
			if !reflect.DeepEqual(a.PerSplit, b.PerSplit) || a.TestMean != b.TestMean || a.ValMean != b.ValMean {
				t.Errorf("cell %d (%s %s/%s): one job on one thread %+v, other run %+v", i, a.Cell.Study, a.Cell.Model, a.Cell.Dataset, a.PerSplit, b.PerSplit)
			}
		}
	}
	splits := 0
	for _, c := range rn.expand(jobsCells()) {
		splits += len(c.Splits)
		if _, err := os.Stat(rn.Path(c)); err != nil {
			t.Errorf("cell %s not saved: %v", c.Key(), err)
		}
	}
	if n := strings.Count(log, " split "); n != splits {
		t.Errorf("%d progress lines for %d splits:\n%s", n, splits, log)
	}
	if !strings.Contains(log, "[100%]") {
		t.Errorf("progress never reached 100%%:\n%s", log)
	}
}

// TestRunnerJobsStopAfterAnError: a failing cell stops the run with its
// error while the other jobs' cells are still saved.
func TestRunnerJobsStopAfterAnError(t *testing.T) {
	rn := &Runner{Dir: t.TempDir(), Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true},
		Threads: 1, Jobs: 2, Epochs: 3, Patience: 3}
	cells := []Cell{
		{Study: "s", Dataset: "cornell", Model: "mlp", Splits: []int{0}},
		{Study: "s", Dataset: "cornell", Model: "gcn", Splits: []int{0, 12}},
	}
	_, err := rn.Run(cells)
	if err == nil || !strings.Contains(err.Error(), "split 12") {
		t.Fatalf("want the split error, got %v", err)
	}
	if rn.LoadExact(cells[0]) == nil {
		t.Error("the good cell, trained alongside, was not saved")
	}
}

// TestRunnerTrainsARepeatedCellOnce: studies share cells (every study that
// compares against the full PCGCN lists the main table's cell), and a plan
// listing one twice must train it once, with two jobs as with one, and
// return its result at both places.
func TestRunnerTrainsARepeatedCellOnce(t *testing.T) {
	var log bytes.Buffer
	rn := &Runner{Dir: t.TempDir(), Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true},
		Threads: 1, Jobs: 2, Epochs: 3, Patience: 3, Progress: &log}
	c := Cell{Study: "s", Dataset: "cornell", Model: "mlp", Splits: []int{0, 1}}
	other := c
	other.Model = "sgc"
	rs, err := rn.Run([]Cell{c, other, c})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(log.String(), " split "); n != 4 {
		t.Errorf("%d splits trained for 4 distinct ones:\n%s", n, log.String())
	}
	if len(rs) != 3 || rs[0] == nil || rs[2] == nil || rs[0].TestMean != rs[2].TestMean || rs[1].Cell.Model != "sgc" {
		t.Errorf("results %+v", rs)
	}
	if p := rn.Plan([]Cell{c, c, other}); len(p) != 1 || p[0].Cells != 2 || p[0].Done != 2 {
		t.Errorf("plan %+v, want 2 cells, both done", p)
	}
}
