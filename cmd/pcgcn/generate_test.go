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
		{"--num-splits", "-1", "--num-splits -1: want 1 to 1000"},
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
