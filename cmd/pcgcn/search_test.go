package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSearchCommand runs a small search on an own graph: the text names the
// rungs, the chosen point and its final scores and the budget; a second run
// trains nothing and prints the same; the space's --set keys are not
// searched; --plan then shows nothing left.
func TestSearchCommand(t *testing.T) {
	own := ownGraph(t, "own", 60, []int{0, 1, 7}, true)
	results := filepath.Join(t.TempDir(), "results")
	args := []string{"search", "--data", own, "--remap-labels", "--model", "mlp", "--trials", "4", "--eta", "2", "--splits", "0-1",
		"--epochs", "6", "--set", "layers=1", "--results", results, "--threads", "1"}
	out, errOut, err := pcgcn(args...)
	if err != nil {
		t.Fatalf("%v: %v\n%s", args, err, errOut)
	}
	for _, want := range []string{"rung 1: 4 trials × 1 splits", "rung 3: 1 trials × 2 splits × 6 epochs", "chosen on validation: --set",
		"final, 2 splits × 6 epochs", "budget: 4 trials, 3 rungs", "fixed: layers=1", "space's source: Luo et al."} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "layers=int") {
		t.Errorf("a --set key is still searched:\n%s", out)
	}
	if !strings.Contains(errOut, "split-epochs done") {
		t.Errorf("no progress with the budget done:\n%s", errOut)
	}
	again, errOut, err := pcgcn(args...)
	if err != nil {
		t.Fatal(err)
	}
	if again != out {
		t.Errorf("a repeated search printed otherwise:\n%s\nfirst:\n%s", again, out)
	}
	if strings.Contains(errOut, "] 1/") {
		t.Errorf("a repeated search trained splits:\n%s", errOut)
	}
	plan, _, err := pcgcn(append(args, "--plan")...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plan, "final") || !strings.Contains(plan, "estimated time left: 0s") {
		t.Errorf("plan after the search:\n%s", plan)
	}
	if _, err := os.Stat(filepath.Join(results, "epochs6-patience6", "search")); err != nil {
		t.Errorf("the trials are not under their budget's directory: %v", err)
	}
}

// TestModelsSpace checks that models --space prints a model's space as
// --space-set takes it, with its source.
func TestModelsSpace(t *testing.T) {
	out, _, err := pcgcn("models", "--space", "pcgcn")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"lambda=log:0.1:10\n", "beta=-5:5\n", "# source: the span of the PCGCN paper's hyperparameter table"} {
		if !strings.Contains(out, want) {
			t.Errorf("models --space pcgcn lacks %q:\n%s", want, out)
		}
	}
	if _, _, err := pcgcn("models", "--space", "pcgcn", "--options", "gcn"); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("--space with --options: %v", err)
	}
}
