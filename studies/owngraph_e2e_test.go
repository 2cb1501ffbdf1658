package studies

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestOwnGraphReports trains a quick main table on an own two-class graph
// with signed features and checks what the reports say about it (issue 35,
// items 5, 6 and 8): the cells are ROC AUC and called so, the signed
// features are trained once and not marked row-normalised, and the results
// page holds the graph and describes the protocol that ran.
func TestOwnGraphReports(t *testing.T) {
	own := csbmGraph(t, 2, 0.8)
	dir := t.TempDir()
	p := newPlan(Options{Quick: true, Datasets: []string{own}, Models: []string{"mlp", "gcn"}, ResultsDir: dir,
		DocsDir: filepath.Join(dir, "docs"), Threads: 1})
	p.runner.Epochs, p.runner.Patience = 3, 3
	cells := mainCells(p)
	if _, err := p.runner.Run(cells); err != nil {
		t.Fatal(err)
	}
	saved, err := filepath.Glob(filepath.Join(p.runner.Dir, mainStudy, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(saved) != len(cells) {
		t.Errorf("%d cells saved for %d main cells: signed features trained more than once", len(saved), len(cells))
	}
	var b strings.Builder
	if err := renderMain(p, &b); err != nil {
		t.Fatal(err)
	}
	main := b.String()
	for _, want := range []string{"Each cell: our test ROC AUC,", "best mean test ROC AUC"} {
		if !strings.Contains(main, want) {
			t.Errorf("main section lacks %q:\n%s", want, main)
		}
	}
	if regexp.MustCompile(`[0-9][ʳⁿ]`).MatchString(main) {
		t.Errorf("a cell of one candidate carries a feature mark:\n%s", main)
	}
	for _, not := range []string{"our test accuracy", "best mean test accuracy"} {
		if strings.Contains(main, not) {
			t.Errorf("main section says %q:\n%s", not, main)
		}
	}
	b.Reset()
	if err := renderStats(p, &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "**Verdict:** nothing to compare: "+filepath.Base(own)+" is not in the paper's table.") {
		t.Errorf("statistics verdict on an own graph alone:\n%s", b.String())
	}
	if err := writeResultsPage(p); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(p.docs, "results.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Your graphs (--data)", "| mlp | " + own + " | ROC AUC |", "| gcn | " + own + " | ROC AUC |",
		"Protocol: splits 0, 1 of each dataset's splits", "up to 3 epochs with patience 3", "--data " + own} {
		if !strings.Contains(string(page), want) {
			t.Errorf("results page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(string(page), "the 10 standard splits") || strings.Contains(string(page), "up to 1000 epochs") {
		t.Errorf("results page describes the full protocol:\n%s", page)
	}
}
