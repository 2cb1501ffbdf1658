package experiments

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// growRunner is a tiny-budget runner on dir logging to log.
func growRunner(t *testing.T, dir string, log *bytes.Buffer) *Runner {
	return &Runner{Dir: dir, Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true},
		Threads: 1, Epochs: 3, Patience: 3, Progress: log}
}

// saveSplits runs c over splits in rn's directory and returns the saved
// file's bytes.
func saveSplits(t *testing.T, rn *Runner, c Cell, splits ...int) []byte {
	t.Helper()
	c.Splits = splits
	if _, err := rn.Run([]Cell{c}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(rn.Path(c))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSubsetRunReusesTheSavedSplits: a run asking for some of a saved
// cell's splits trains nothing, leaves the file as it was and answers with
// those splits (issue 35: it replaced a 10-split cell by a 1-split one).
func TestSubsetRunReusesTheSavedSplits(t *testing.T) {
	var log bytes.Buffer
	rn := growRunner(t, t.TempDir(), &log)
	c := Cell{Study: "s", Dataset: "texas", Model: "mlp"}
	before := saveSplits(t, rn, c, 0, 1, 2)
	var full Result
	if err := json.Unmarshal(before, &full); err != nil {
		t.Fatal(err)
	}
	sub := c
	sub.Splits = []int{2, 0}
	if p := rn.Plan([]Cell{sub}); p[0].Done != 1 || p[0].Reused != 1 || p[0].Splits != 0 {
		t.Errorf("plan of a subset: %+v, want it done, reused from the saved cell", p[0])
	}
	log.Reset()
	rs, err := rn.Run([]Cell{sub})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log.String(), "split ") {
		t.Errorf("a subset of the saved splits was trained again:\n%s", log.String())
	}
	if after, _ := os.ReadFile(rn.Path(c)); !bytes.Equal(after, before) {
		t.Errorf("the saved 3-split cell was rewritten:\n%s", after)
	}
	r := rs[0]
	if !slices.Equal(r.Cell.Splits, []int{2, 0}) || len(r.PerSplit) != 2 ||
		!reflect.DeepEqual(r.PerSplit[0], full.PerSplit[2]) || !reflect.DeepEqual(r.PerSplit[1], full.PerSplit[0]) {
		t.Errorf("view on splits 2,0: %+v", r)
	}
	if want := (full.PerSplit[0].Test + full.PerSplit[2].Test) / 2; r.TestMean != want {
		t.Errorf("view's test mean %v, want %v", r.TestMean, want)
	}
}

// TestRunAddsTheMissingSplits: a run asking for splits a saved cell lacks
// trains only those and adds them; the file only grows.
func TestRunAddsTheMissingSplits(t *testing.T) {
	var log bytes.Buffer
	rn := growRunner(t, t.TempDir(), &log)
	c := Cell{Study: "s", Dataset: "texas", Model: "mlp"}
	var before Result
	if err := json.Unmarshal(saveSplits(t, rn, c, 0, 1), &before); err != nil {
		t.Fatal(err)
	}
	more := c
	more.Splits = []int{1, 2}
	if p := rn.Plan([]Cell{more}); p[0].Done != 0 || p[0].Extended != 1 || p[0].Splits != 1 {
		t.Errorf("plan: %+v, want one split left, added to the saved cell", p[0])
	}
	log.Reset()
	rs, err := rn.Run([]Cell{more})
	if err != nil {
		t.Fatal(err)
	}
	if l := log.String(); strings.Contains(l, "split 0") || strings.Contains(l, "split 1") || !strings.Contains(l, "split 2") {
		t.Errorf("trained other splits than the missing one:\n%s", l)
	}
	var after Result
	b, _ := os.ReadFile(rn.Path(c))
	if err := json.Unmarshal(b, &after); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(after.Cell.Splits, []int{0, 1, 2}) || len(after.PerSplit) != 3 ||
		!reflect.DeepEqual(after.PerSplit[:2], before.PerSplit) || after.PerSplit[2].Split != 2 {
		t.Errorf("saved cell after adding split 2: splits %v, %d results", after.Cell.Splits, len(after.PerSplit))
	}
	if len(rs[0].PerSplit) != 2 || !reflect.DeepEqual(rs[0].PerSplit[0], before.PerSplit[1]) {
		t.Errorf("result for splits 1,2: %+v", rs[0])
	}
	// and the grown cell answers the first request too, with its numbers
	c.Splits = []int{0, 1}
	if r := rn.LoadExact(c); r == nil || r.TestMean != before.TestMean || r.ValStd != before.ValStd {
		t.Errorf("splits 0,1 from the grown cell: %+v, want the means saved before", r)
	}
}

// TestOtherSeedSavesSideBySide: a run with another seed leaves the base
// seed's cell byte for byte, and keeps its own in KeyDir.
func TestOtherSeedSavesSideBySide(t *testing.T) {
	var log bytes.Buffer
	dir := t.TempDir()
	base := growRunner(t, dir, &log)
	c := Cell{Study: "s", Dataset: "texas", Model: "mlp"}
	before := saveSplits(t, base, c, 0, 1)
	seven := growRunner(t, dir, &log)
	seven.Seed = 7
	if p := seven.Plan([]Cell{{Study: "s", Dataset: "texas", Model: "mlp", Splits: []int{0}}}); p[0].Done != 0 || p[0].Stale != 0 {
		t.Errorf("seed 7 plan: %+v, want one cell to run, nothing stale", p[0])
	}
	saveSplits(t, seven, c, 0)
	if after, _ := os.ReadFile(base.Path(c)); !bytes.Equal(after, before) {
		t.Error("a seed-7 run rewrote the seed-42 cell")
	}
	if got, want := seven.Path(c), filepath.Join(dir, "seed7", "s", c.Key()+".json"); got != want {
		t.Errorf("seed 7 saves to %s, want %s", got, want)
	}
	c.Splits = []int{0}
	if r := seven.LoadExact(c); r == nil || r.Seed != 7 {
		t.Errorf("seed 7 cell: %+v", r)
	}
	if r := base.LoadExact(c); r == nil || r.Seed != 42 {
		t.Errorf("seed 42 cell: %+v", r)
	}
}

// TestOtherKeyIsNeverShrunk: a saved cell of another budget in the same
// directory is replaced only by one holding every split it held.
func TestOtherKeyIsNeverShrunk(t *testing.T) {
	var log bytes.Buffer
	rn := growRunner(t, t.TempDir(), &log)
	c := Cell{Study: "s", Dataset: "texas", Model: "mlp"}
	saveSplits(t, rn, c, 0, 1, 2)
	other := growRunner(t, rn.Dir, &log)
	other.Epochs = 4
	c.Splits = []int{1}
	if p := other.Plan([]Cell{c}); p[0].Stale != 1 || p[0].Splits != 3 {
		t.Errorf("plan: %+v, want the stale cell's 3 splits to train", p[0])
	}
	if _, err := other.Run([]Cell{c}); err != nil {
		t.Fatal(err)
	}
	var after Result
	b, _ := os.ReadFile(rn.Path(c))
	if err := json.Unmarshal(b, &after); err != nil {
		t.Fatal(err)
	}
	if after.Epochs != 4 || !slices.Equal(after.Cell.Splits, []int{0, 1, 2}) || len(after.PerSplit) != 3 {
		t.Errorf("replaced by epochs %d, splits %v", after.Epochs, after.Cell.Splits)
	}
}

// TestWorkerReusesAndGrowsSavedCells: worker mode answers a subset from the
// saved cell without claiming it, and adds missing splits to it.
func TestWorkerReusesAndGrowsSavedCells(t *testing.T) {
	var log bytes.Buffer
	rn := growRunner(t, t.TempDir(), &log)
	c := Cell{Study: "s", Dataset: "texas", Model: "mlp"}
	before := saveSplits(t, rn, c, 0, 1)
	c.Splits = []int{1}
	log.Reset()
	if err := rn.Work(context.Background(), []Cell{c}, WorkOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log.String(), "claimed") {
		t.Errorf("a worker claimed a cell whose splits are saved:\n%s", log.String())
	}
	if after, _ := os.ReadFile(rn.Path(c)); !bytes.Equal(after, before) {
		t.Error("the worker rewrote the saved cell")
	}
	c.Splits = []int{2}
	log.Reset()
	if err := rn.Work(context.Background(), []Cell{c}, WorkOptions{}); err != nil {
		t.Fatal(err)
	}
	if l := log.String(); strings.Contains(l, "split 0") || !strings.Contains(l, "split 2") {
		t.Errorf("worker trained other splits than the missing one:\n%s", l)
	}
	c.Splits = []int{0, 1, 2}
	if r := rn.LoadExact(c); r == nil {
		t.Error("the worker did not add split 2 to the saved splits 0-1")
	}
	seven := growRunner(t, rn.Dir, &log)
	seven.Seed = 7
	before, _ = os.ReadFile(rn.Path(c))
	if err := seven.Work(context.Background(), []Cell{c}, WorkOptions{}); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(rn.Path(c)); !bytes.Equal(after, before) {
		t.Error("a seed-7 worker rewrote the seed-42 cell")
	}
	if seven.LoadExact(c) == nil {
		t.Error("the seed-7 worker saved nothing")
	}
}

// TestCommittedCellsStillLoad: the cells committed under results/ (seed 42,
// splits 0-9, the full budget) load under their file names as they are,
// and answer a request for one split with a view, reading only.
func TestCommittedCellsStillLoad(t *testing.T) {
	rn := &Runner{Dir: filepath.Join("..", "results"), Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true}}
	for _, name := range []string{"main/mlp__texas.json", "ablation/pcgcn__cornell__no_cl__no_cl=true.json"} {
		b, err := os.ReadFile(filepath.Join(rn.Dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var saved Result
		if err := json.Unmarshal(b, &saved); err != nil {
			t.Fatal(err)
		}
		c := saved.Cell
		if rn.Path(c) != filepath.Join(rn.Dir, name) {
			t.Errorf("%s: the runner looks for it at %s", name, rn.Path(c))
		}
		if r := rn.LoadExact(c); r == nil || r.TestMean != saved.TestMean || len(r.PerSplit) != 10 {
			t.Errorf("%s does not load as saved: %+v", name, r)
		}
		c.Splits = []int{3}
		if r := rn.LoadExact(c); r == nil || r.TestMean != saved.PerSplit[3].Test {
			t.Errorf("%s: split 3 alone: %+v", name, r)
		}
		if p := rn.Plan([]Cell{c}); p[0].Done != 1 || p[0].Reused != 1 {
			t.Errorf("%s: plan of split 3: %+v", name, p[0])
		}
	}
}
