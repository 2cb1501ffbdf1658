package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// files returns every file under dir but those under skip (a directory
// name relative to dir, "" for none), by path relative to dir, with its
// bytes.
func files(t *testing.T, dir, skip string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.IsDir() {
			if skip != "" && rel == skip {
				return filepath.SkipDir
			}
			return nil
		}
		b, _ := os.ReadFile(path)
		out[rel] = b
		return nil
	})
	return out
}

func sameFiles(t *testing.T, what string, before, after map[string][]byte) {
	t.Helper()
	if len(before) != len(after) {
		t.Errorf("%s: %d files, %d before", what, len(after), len(before))
	}
	for name, b := range before {
		if !bytes.Equal(after[name], b) {
			t.Errorf("%s rewrote %s", what, name)
		}
	}
}

// TestTuneNeverShrinksSavedPoints: tune (and its worker mode) on fewer
// splits or another seed leaves the saved points byte for byte, reusing
// them or saving beside them; on more splits it trains only those (issue
// 35).
func TestTuneNeverShrinksSavedPoints(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "results")
	tune := func(extra ...string) []tunePoint {
		t.Helper()
		root := newRootCmd()
		var out, errOut bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&errOut)
		root.SetArgs(append([]string{"tune", "--model", "mlp", "--dataset", "texas", "--grid", "hidden=8,16", "--epochs", "5",
			"--threads", "1", "--results", results, "--data-dir", datatest.Mirror(t)}, extra...))
		if err := root.Execute(); err != nil {
			t.Fatalf("tune %v: %v\n%s", extra, err, errOut.String())
		}
		var pts []tunePoint
		if !strings.Contains(strings.Join(extra, " "), "--worker") {
			if err := json.Unmarshal(out.Bytes(), &pts); err != nil {
				t.Fatalf("tune %v: %v\n%s", extra, err, out.String())
			}
		}
		return pts
	}
	tune("--splits", "0-2", "--json")
	saved := files(t, results, "")
	if len(saved) != 2 {
		t.Fatalf("%d files saved, want the 2 points", len(saved))
	}

	sub := tune("--splits", "1", "--json")
	sameFiles(t, "tune --splits 1", saved, files(t, results, ""))
	if len(sub) != 2 || sub[0].Splits != 1 {
		t.Errorf("points on split 1: %+v", sub)
	}
	tune("--splits", "0", "--worker")
	sameFiles(t, "tune --worker --splits 0", saved, files(t, results, ""))

	budget := filepath.Join(results, "epochs5-patience200")
	tune("--splits", "1", "--seed", "7", "--json")
	sameFiles(t, "tune --seed 7", saved, files(t, results, filepath.Join("epochs5-patience200", "seed7")))
	tune("--splits", "0-1", "--seed", "7", "--worker")
	sameFiles(t, "tune --worker --seed 7", saved, files(t, results, filepath.Join("epochs5-patience200", "seed7")))
	seven, _ := filepath.Glob(filepath.Join(budget, "seed7", "tune", "*.json"))
	if len(seven) != 2 {
		t.Fatalf("seed 7 points %v, want 2", seven)
	}
	for _, f := range seven {
		var r experiments.Result
		b, _ := os.ReadFile(f)
		if json.Unmarshal(b, &r) != nil || r.Seed != 7 || len(r.PerSplit) != 2 {
			t.Errorf("%s: seed %d, %d splits; want seed 7 on splits 0-1 (1 then 0 added)", f, r.Seed, len(r.PerSplit))
		}
	}

	// more splits: the saved ones are kept and the new ones added
	more := tune("--splits", "0-3", "--json")
	for _, p := range more {
		if p.Splits != 4 {
			t.Errorf("point %v on %d splits, want 4", p.Sets, p.Splits)
		}
	}
	for name, b := range saved {
		var before, after experiments.Result
		a, _ := os.ReadFile(filepath.Join(results, name))
		if json.Unmarshal(b, &before) != nil || json.Unmarshal(a, &after) != nil {
			t.Fatal("unreadable point")
		}
		if len(after.PerSplit) != 4 || after.PerSplit[2].SplitScores != before.PerSplit[2].SplitScores {
			t.Errorf("%s: %d splits after adding split 3, or split 2 changed", name, len(after.PerSplit))
		}
	}
}

// TestReproduceSubsetReusesSavedCells: reproduce on one split of saved
// two-split cells plans them as reused, trains nothing and leaves every
// saved cell byte for byte (issue 35: --plan showed nothing stale and the
// run replaced them with one-split cells).
func TestReproduceSubsetReusesSavedCells(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "results")
	run := func(extra ...string) string {
		t.Helper()
		root := newRootCmd()
		var out, errOut bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&errOut)
		root.SetArgs(append([]string{"reproduce", "--quick", "--only", "ablation", "--datasets", "texas", "--threads", "1",
			"--results", results, "--docs", filepath.Join(dir, "docs"), "--data-dir", datatest.Mirror(t)}, extra...))
		if err := root.Execute(); err != nil {
			t.Fatalf("reproduce %v: %v\n%s", extra, err, errOut.String())
		}
		return out.String()
	}
	run()
	cells := files(t, filepath.Join(results, "quick"), "")
	for name := range cells {
		if !strings.HasSuffix(name, ".json") || !strings.Contains(name, "/") {
			delete(cells, name) // the reports, rendered again
		}
	}
	var plan planOutput
	if err := json.Unmarshal([]byte(run("--splits", "0", "--plan", "--json")), &plan); err != nil {
		t.Fatal(err)
	}
	if plan.Total.Cells == 0 || plan.Total.Reused != plan.Total.Cells || plan.Total.Done != plan.Total.Cells || plan.Total.Splits != 0 {
		t.Errorf("plan of split 0 of the saved cells: %+v, want every cell reused", plan.Total)
	}
	if text := run("--splits", "0", "--plan"); !strings.Contains(text, "reused") {
		t.Errorf("the plan table does not say what is reused:\n%s", text)
	}
	run("--splits", "0")
	after := files(t, filepath.Join(results, "quick"), "")
	for name, b := range cells {
		if !bytes.Equal(after[name], b) {
			t.Errorf("reproduce --splits 0 rewrote %s", name)
		}
	}
}
