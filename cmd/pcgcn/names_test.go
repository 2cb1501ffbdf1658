package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// TestUnknownNamesRefused: every command that takes a dataset, model or
// study name refuses an unknown one (a typo) with an error listing the valid
// names, instead of falling back to a default (issue 35: `models --options
// pcgcn --dataset cornel` printed the default preset and exited 0).
func TestUnknownNamesRefused(t *testing.T) {
	mirror := datatest.Mirror(t)
	const (
		dsList    = "valid names: actor, chameleon"
		modelList = "valid: pcgcn, appnp"
	)
	cases := []struct {
		name string
		cmd  func() *cobra.Command
		args []string
		want []string
	}{
		{"models dataset", newModelsCmd, []string{"--options", "pcgcn", "--dataset", "cornel"}, []string{"--dataset", `"cornel"`, dsList}},
		{"models dataset alone", newModelsCmd, []string{"--dataset", "cornell"}, []string{"--dataset cornell", "with --options"}},
		{"models options", newModelsCmd, []string{"--options", "pcgcnn"}, []string{`"pcgcnn"`, modelList}},
		{"train dataset", newTrainCmd, []string{"--dataset", "cornel"}, []string{`"cornel"`, dsList}},
		{"train model", newTrainCmd, []string{"--dataset", "texas", "--model", "gcnn"}, []string{`"gcnn"`, modelList}},
		{"tune dataset", newTuneCmd, []string{"--dataset", "cornel", "--grid", "lr=0.1"}, []string{`"cornel"`, dsList}},
		{"tune model", newTuneCmd, []string{"--dataset", "texas", "--model", "gcnn", "--grid", "lr=0.1"}, []string{`"gcnn"`, modelList}},
		{"search model", newSearchCmd, []string{"--dataset", "texas", "--model", "gcnn"}, []string{`"gcnn"`, modelList}},
		{"models space", newModelsCmd, []string{"--space", "gcnn"}, []string{`"gcnn"`, modelList}},
		{"bench dataset", newBenchCmd, []string{"cornel"}, []string{`"cornel"`, dsList}},
		{"bench model", newBenchCmd, []string{"texas", "--model", "gcnn"}, []string{`"gcnn"`, modelList}},
		{"predict dataset", newPredictCmd, []string{"cornel", "--model-dir", "x"}, []string{`"cornel"`, dsList}},
		{"stats dataset", newStatsCmd, []string{"cornel"}, []string{`"cornel"`, dsList}},
		{"reproduce datasets", newReproduceCmd, []string{"--plan", "--datasets", "cornel"}, []string{`"cornel"`, dsList}},
		{"reproduce models", newReproduceCmd, []string{"--plan", "--models", "gcnn"}, []string{`"gcnn"`, modelList}},
		{"reproduce only", newReproduceCmd, []string{"--plan", "--only", "mian"}, []string{"--only", `"mian"`, "valid: stats, main"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sub := tc.cmd()
			args := append([]string{sub.Name()}, tc.args...)
			if sub.Name() == "tune" || sub.Name() == "reproduce" || sub.Name() == "search" {
				args = append(args, "--results", filepath.Join(t.TempDir(), "r"))
			}
			out, err := execNoPanic(t, sub, append(args, "--data-dir", mirror)...)
			if err == nil {
				t.Fatalf("%v: no error; output:\n%s", args, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestTuneSetOnAGridKey: a --set of a key that is also a --grid axis was
// dropped silently (the grid's values won); it is refused, naming both.
func TestTuneSetOnAGridKey(t *testing.T) {
	dir := t.TempDir()
	_, err := execNoPanic(t, newTuneCmd(), "tune", "--dataset", "texas", "--grid", "lr=0.1,0.2", "--set", "lr=0.3", "--epochs", "2", "--splits", "0",
		"--results", filepath.Join(dir, "r"), "--data-dir", datatest.Mirror(t))
	if err == nil || !strings.Contains(err.Error(), "--set lr=0.3") || !strings.Contains(err.Error(), "--grid") {
		t.Fatalf("got %v, want a refusal naming --set lr=0.3 and --grid", err)
	}
}
