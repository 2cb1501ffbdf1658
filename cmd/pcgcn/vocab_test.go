package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/paper"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// TestVocabularyValues checks the values issue 35 found named or counted
// two ways: the thread count recorded is the one used, bench names PCGCN
// as every command does, the metric is rocauc in flags and JSON (roc_auc
// still read), and an old paper score ("Mean", "Std") still reads.
func TestVocabularyValues(t *testing.T) {
	mirror := datatest.Mirror(t)
	cores := runtime.GOMAXPROCS(0)
	out, _, err := pcgcn("train", "--dataset", "texas", "--model", "mlp", "--epochs", "2", "--splits", "0", "--json", "--quiet", "--data-dir", mirror)
	if err != nil {
		t.Fatal(err)
	}
	var tr struct {
		Training struct {
			Threads int `json:"threads"`
		} `json:"training"`
		FeaturePrep string `json:"feature_preparation"`
	}
	if err := json.Unmarshal([]byte(out), &tr); err != nil || tr.Training.Threads != cores || tr.FeaturePrep == "" {
		t.Errorf("train --json: training.threads %d (want the %d used), feature_preparation %q: %v", tr.Training.Threads, cores, tr.FeaturePrep, err)
	}
	out, _, err = pcgcn("bench", "texas", "--epochs", "1", "--warmup", "0", "--set", "bmode=ste", "--json", "--data-dir", mirror)
	if err != nil {
		t.Fatal(err)
	}
	var b benchResult
	if err := json.Unmarshal([]byte(out), &b); err != nil || b.Model != "pcgcn" || b.Variant != "ste" || b.Threads != cores {
		t.Errorf("bench --json: model %q variant %q threads %d, want pcgcn, ste, %d: %v", b.Model, b.Variant, b.Threads, cores, err)
	}
	out, _, err = pcgcn("datasets", "--json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"metric": "rocauc"`) || strings.Contains(out, "roc_auc") {
		t.Errorf("datasets --json does not name the metric rocauc:\n%s", out)
	}
	for _, name := range []string{"rocauc", "roc_auc"} {
		if m, err := resolveMetric(name, "minesweeper", nil); err != nil || m != datasets.ROCAUC {
			t.Errorf("--metric %s: %v %v", name, m, err)
		}
	}
	var saved struct {
		Metric datasets.Metric `json:"metric"`
		Paper  paper.Score     `json:"paper"`
	}
	if err := json.Unmarshal([]byte(`{"metric": "roc_auc", "paper": {"Mean": 73.5, "Std": 1.2}}`), &saved); err != nil ||
		saved.Metric != datasets.ROCAUC || saved.Paper.Mean != 73.5 || saved.Paper.Std != 1.2 {
		t.Errorf("old names do not read: %+v %v", saved, err)
	}
	if b, _ := json.Marshal(saved); string(b) != `{"metric":"rocauc","paper":{"mean":73.5,"std":1.2}}` {
		t.Errorf("written as %s", b)
	}
}

// TestTuneNamesOwnGraphCellsByTheirPath: tune's cells of an own graph are
// the same files whether --data was given relative or absolute (they were
// named by the folder for one and the whole path for the other, so the
// second search trained everything again), and --help says where another
// budget's points go.
func TestTuneNamesOwnGraphCellsByTheirPath(t *testing.T) {
	own := ownGraph(t, "own", 60, []int{0, 1, 2}, true)
	results := filepath.Join(t.TempDir(), "results")
	wd, _ := os.Getwd()
	t.Cleanup(func() { os.Chdir(wd) })
	if err := os.Chdir(filepath.Dir(own)); err != nil {
		t.Fatal(err)
	}
	for _, data := range []string{"own", own} {
		if _, _, err := pcgcn("tune", "--data", data, "--model", "mlp", "--grid", "hidden=8", "--splits", "0", "--results", results, "--json", "--quiet", "--threads", "1", "--set", "lr=0.5"); err != nil {
			t.Fatal(err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(results, "tune", "*.json"))
	if len(files) != 1 {
		t.Errorf("tune saved %d cells for one graph and one point, want 1: %v", len(files), files)
	}
	root := newRootCmd()
	tune, _, _ := root.Find([]string{"tune"})
	if !strings.Contains(tune.Long, "epochsN-patienceM") {
		t.Error("tune --help does not say where points of another budget are saved")
	}
}
