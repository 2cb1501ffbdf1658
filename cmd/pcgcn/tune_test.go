package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// TestTuneRanksOnValidation runs a small grid on Texas and checks that the
// JSON output has every point once, ranked by validation mean, and that the
// text output names the best point as --set flags.
func TestTuneRanksOnValidation(t *testing.T) {
	dir := t.TempDir()
	run := func(extra ...string) (string, error) {
		root := newRootCmd()
		var out, errOut bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&errOut)
		args := append([]string{"tune", "--model", "mlp", "--dataset", "texas", "--grid", "hidden=8,32", "--grid", "lr=0.01,0.05",
			"--splits", "0-1", "--epochs", "30", "--threads", "1", "--results", filepath.Join(dir, "results"),
			"--data-dir", datatest.Mirror(t)}, extra...)
		root.SetArgs(args)
		err := root.Execute()
		return out.String(), err
	}
	js, err := run("--json")
	if err != nil {
		t.Fatal(err)
	}
	var pts []tunePoint
	if err := json.Unmarshal([]byte(js), &pts); err != nil {
		t.Fatalf("json: %v\n%s", err, js)
	}
	if len(pts) != 4 {
		t.Fatalf("%d points, want 4", len(pts))
	}
	seen := map[string]bool{}
	for i, p := range pts {
		seen[p.Sets["hidden"]+"/"+p.Sets["lr"]] = true
		if p.Rank != i+1 || p.Splits != 2 || (i > 0 && p.ValMean > pts[i-1].ValMean) {
			t.Errorf("point %d: %+v", i, p)
		}
	}
	if len(seen) != 4 {
		t.Errorf("points %v", seen)
	}
	text, err := run()
	if err != nil {
		t.Fatal(err)
	}
	want := "best on validation: --set hidden=" + pts[0].Sets["hidden"] + " --set lr=" + pts[0].Sets["lr"]
	if !strings.Contains(text, want) || !strings.Contains(text, "4 grid points × 2 splits") {
		t.Errorf("text output lacks %q:\n%s", want, text)
	}
	for _, bad := range [][]string{{"--grid", "nope=1"}, {"--set", "lr"}, {"--model", "nope"}} {
		if _, err := run(bad...); err == nil {
			t.Errorf("tune %v accepted", bad)
		}
	}
}

// TestOutOfRangeValueFailsBeforeTraining checks that tune and train reject an
// out-of-range value with the model's one-line message before training or
// saving anything, even when the bad value is the last grid point.
func TestOutOfRangeValueFailsBeforeTraining(t *testing.T) {
	mirror := datatest.Mirror(t)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"tune grid", []string{"tune", "--model", "glognn", "--grid", "gamma=0,2", "--splits", "0"},
			"glognn: gamma must be in [0,1), got 2"},
		{"tune set", []string{"tune", "--model", "glognn", "--grid", "gamma=0,0.5", "--set", "orders=0", "--splits", "0"},
			"glognn: orders must be ≥ 1, got 0"},
		{"train set", []string{"train", "--model", "glognn", "--set", "gamma=2", "--splits", "0", "--save", "SAVE"},
			"--set gamma=2: glognn: gamma must be in [0,1), got 2"},
		{"train shortcut", []string{"train", "--model", "gcn", "--hidden", "0", "--splits", "0", "--save", "SAVE"},
			"--hidden 0: gcn: hidden must be ≥ 1, got 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{}, tc.args...)
			for i, a := range args {
				if a == "SAVE" {
					args[i] = filepath.Join(dir, "model")
				}
			}
			args = append(args, "--dataset", "texas", "--epochs", "2", "--threads", "1",
				"--data-dir", mirror)
			if args[0] == "tune" {
				args = append(args, "--results", dir)
			}
			out, _, err := pcgcn(args...)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			var saved []string
			filepath.WalkDir(dir, func(p string, d fs.DirEntry, _ error) error {
				if d != nil && !d.IsDir() {
					saved = append(saved, p)
				}
				return nil
			})
			if len(saved) != 0 || out != "" {
				t.Errorf("wrote before failing: files %v, stdout %q", saved, out)
			}
		})
	}
}

// TestTuneWorkers: two tune workers (--worker, and a static --shard) on one
// results directory train the grid between them, and a plain tune afterwards
// trains nothing and ranks the same points as a serial tune.
func TestTuneWorkers(t *testing.T) {
	run := func(dir string, extra ...string) (string, string, error) {
		root := newRootCmd()
		var out, errOut bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&errOut)
		args := append([]string{"tune", "--model", "mlp", "--dataset", "texas", "--grid", "hidden=8,32", "--grid", "lr=0.01,0.05",
			"--splits", "0-1", "--epochs", "20", "--threads", "1", "--results", dir, "--data-dir", datatest.Mirror(t)}, extra...)
		root.SetArgs(args)
		err := root.Execute()
		return out.String(), errOut.String(), err
	}
	serial, _, err := run(t.TempDir(), "--json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, w := range [][]string{{"--shard", "0/2"}, {"--worker"}} {
		out, _, err := run(dir, w...)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, "worker finished") {
			t.Errorf("%v: %q", w, out)
		}
	}
	ranked, progress, err := run(dir, "--json")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(progress, "split 0") {
		t.Errorf("the tune after the workers trained again:\n%s", progress)
	}
	var a, b []tunePoint
	json.Unmarshal([]byte(serial), &a)
	json.Unmarshal([]byte(ranked), &b)
	if len(a) != 4 || len(b) != 4 {
		t.Fatalf("%d and %d points", len(a), len(b))
	}
	for i := range a {
		if a[i].Sets["hidden"] != b[i].Sets["hidden"] || a[i].Sets["lr"] != b[i].Sets["lr"] || a[i].ValMean != b[i].ValMean || a[i].TestMean != b[i].TestMean {
			t.Errorf("rank %d: serial %+v, workers %+v", i+1, a[i], b[i])
		}
	}
}
