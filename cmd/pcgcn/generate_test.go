package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGenerateCSBMThenStats(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "g")
	out, err := execCmd(t, newGenerateCmd(), "generate", "csbm", "--out", dir, "--nodes", "600", "--avg-degree", "8",
		"--classes", "3", "--homophily", "0.7", "--features", "4", "--num-splits", "2", "--split-ratio", "0.48,0.32,0.2", "--seed", "5", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var r generateResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if r.Nodes != 600 || r.Edges != 2400 || r.MeanDegree != 8 || r.Files["splits.npz"] == 0 || r.ClassSizes[0] != 200 {
		t.Fatalf("result %+v", r)
	}
	if r.EdgeHomophily < 0.65 || r.EdgeHomophily > 0.75 {
		t.Fatalf("sampled homophily %v for 0.7", r.EdgeHomophily)
	}
	out, err = execCmd(t, newStatsCmd(), "stats", "--data", dir, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Nodes  int `json:"nodes"`
		Splits []struct {
			Train int `json:"train"`
		} `json:"splits"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil || s.Nodes != 600 || len(s.Splits) != 2 || s.Splits[0].Train != 288 {
		t.Fatalf("stats %v: %s", err, out)
	}
	// an existing graph is not overwritten; a bad parameter names itself
	if _, err := execCmd(t, newGenerateCmd(), "generate", "csbm", "--out", dir); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("overwrite: %v", err)
	}
	for _, c := range []struct{ flag, value, want string }{
		{"--homophily", "2", "--homophily 2: homophily must be in [0, 1], got 2"},
		{"--avg-degree", "NaN", "--avg-degree NaN: avg_degree must be a finite number"},
		{"--split-ratio", "0.6,0.5,0.2", `--split-ratio "0.6,0.5,0.2": fractions 0.6,0.5,0.2 sum to 1.3, more than 1`},
		{"--num-splits", "-1", "--num-splits -1: want 0 (no splits.npz) to 1000"},
		{"--num-splits", "1001", "--num-splits 1001: want 0 (no splits.npz) to 1000"},
		{"--nodes", "3", "--nodes 3: nodes must be"},
	} {
		t.Run(c.flag, func(t *testing.T) {
			_, err := execCmd(t, newGenerateCmd(), "generate", "csbm", "--out", dir+"2", c.flag, c.value)
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("%s %s: %v", c.flag, c.value, err)
			}
			if _, serr := os.Stat(dir + "2"); serr == nil {
				t.Fatalf("%s %s: wrote %s", c.flag, c.value, dir+"2")
			}
		})
	}
	if _, err := execCmd(t, newGenerateCmd(), "generate", "csbm"); err == nil || !strings.Contains(err.Error(), "--out") {
		t.Fatalf("no --out: %v", err)
	}
}

// A generated graph trains in mini-batches from the command line, with its
// features memory-mapped, and the JSON says so; bench times batch epochs.
func TestTrainAndBenchInMiniBatches(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "g")
	if _, err := execCmd(t, newGenerateCmd(), "generate", "csbm", "--out", dir, "--nodes", "600", "--avg-degree", "8",
		"--classes", "3", "--homophily", "0.8", "--features", "8", "--signal", "1.5", "--num-splits", "2", "--seed", "5"); err != nil {
		t.Fatal(err)
	}
	out, err := execCmd(t, newTrainCmd(), "train", "--data", dir, "--model", "gcn", "--batch", "64", "--fanouts", "5,all",
		"--epochs", "20", "--patience", "0", "--threads", "1", "--quiet", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		TestMean float64 `json:"test_mean"`
		Training struct {
			Batch struct {
				Size    int   `json:"size"`
				Fanouts []int `json:"fanouts"`
			} `json:"batch"`
		} `json:"training"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if rep.Training.Batch.Size != 64 || len(rep.Training.Batch.Fanouts) != 2 || rep.Training.Batch.Fanouts[1] != -1 || rep.TestMean < 60 {
		t.Errorf("report: batch %+v, test %.2f", rep.Training.Batch, rep.TestMean)
	}
	out, err = execCmd(t, newBenchCmd(), "bench", "--data", dir, "--model", "pcgcn", "--batch", "100", "--epochs", "2", "--warmup", "0", "--threads", "1", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var b benchResult
	if err := json.Unmarshal([]byte(out), &b); err != nil || b.Batch == nil || b.Batch.Size != 100 || b.MedianMs <= 0 {
		t.Errorf("bench %v: %s", err, out)
	}
}
