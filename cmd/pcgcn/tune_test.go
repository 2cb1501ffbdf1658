package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/internal/datatest"
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
