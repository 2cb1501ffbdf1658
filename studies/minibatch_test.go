package studies

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// The mini-batch study trains its cells (a batch setting in the cell, saved
// under its own key) and renders the comparison with full batch.
func TestMinibatchStudyEndToEnd(t *testing.T) {
	dir := t.TempDir()
	p := newPlan(Options{Quick: true, Datasets: []string{"texas"}, Splits: []int{0, 1}, ResultsDir: dir,
		DocsDir: filepath.Join(dir, "docs"), Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true}, Threads: 1})
	p.runner.Epochs, p.runner.Patience = 4, 4
	var b strings.Builder
	if err := renderMinibatch(p, &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "Not trained yet (an optional study, beyond the paper): `pcgcn reproduce --only minibatch`") {
		t.Errorf("nothing saved:\n%s", b.String())
	}
	cells := minibatchCells(p)
	if len(cells) != 6 { // pcgcn and gcn, full batch and mini-batch without and with history
		t.Fatalf("%d cells, want 6", len(cells))
	}
	if _, err := p.runner.Run(cells); err != nil {
		t.Fatal(err)
	}
	mb := minibatchCells(p)[1] // the full-batch choice is saved now
	if batchOptions(mb) == nil || !strings.Contains(mb.Key(), "batch1024-f10-5") || strings.Contains(mb.Key(), "history") {
		t.Fatalf("mini-batch cell %+v, key %s", mb, mb.Key())
	}
	// the history cell adds its setting to the mini-batch cell's key
	if h := minibatchCells(p)[2]; !flag(h, optHistory) || h.Key() != mb.Key()+"__history" {
		t.Fatalf("history cell %+v, key %s", h, h.Key())
	}
	b.Reset()
	if err := renderMinibatch(p, &b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "| — |") {
		t.Errorf("a history cell trained but not shown:\n%s", b.String())
	}
	for _, want := range []string{"| texas | pcgcn | accuracy |", "| texas | gcn | accuracy |", "**Verdict:**"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("rendered section lacks %q:\n%s", want, b.String())
		}
	}
}

// TestNormMarkFollowsTraining: the mini-batch table's feature mark says what
// was trained: signed features of a graph given by path are trained raw
// whatever normalize_features says (issue 35: marks follow the training).
func TestNormMarkFollowsTraining(t *testing.T) {
	own := csbmGraph(t, 2, 0.8)
	p := newPlan(Options{ResultsDir: t.TempDir(), Datasets: []string{own}})
	res := func(ds string, cfg map[string]any) *experiments.Result {
		return &experiments.Result{Cell: experiments.Cell{Dataset: ds, Model: "gcn"}, Config: cfg}
	}
	for _, c := range []struct {
		name string
		r    *experiments.Result
		want string
	}{
		{"signed, normalize_features", res(own, map[string]any{"normalize_features": true}), "ʳ"},
		{"signed, normalize_signed", res(own, map[string]any{"normalize_features": true, "normalize_signed": true}), "ⁿ"},
		{"registered, normalize_features", res("texas", map[string]any{"normalize_features": true}), "ⁿ"},
		{"registered, raw", res("texas", map[string]any{"normalize_features": false}), "ʳ"},
	} {
		if got := p.normMark(c.r); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestSpreads: a mini-batch result equal to full batch is within one
// spread even when neither has a spread (0/0 was NaN, counted as outside).
func TestSpreads(t *testing.T) {
	if z := spreads(0, 0); z != 0 {
		t.Errorf("no difference, no spread: %v", z)
	}
	if z := spreads(1, 0); !math.IsInf(z, 1) {
		t.Errorf("a difference without spread: %v", z)
	}
	if z := spreads(-1, 2); z != -0.5 {
		t.Errorf("spreads(-1, 2) = %v", z)
	}
}

// TestHistoryVerdict: the history verdict claims every result within 2
// points only when all are trained and within; one 2.5 points off, or one
// not trained, keeps the claim out.
func TestHistoryVerdict(t *testing.T) {
	for _, c := range []struct {
		diffs   []float64
		missing int
		want    string
		deny    string
	}{
		{[]float64{-0.08, 0.39, 1.39}, 0, "3 of the 3 trained are within 2 points of full batch: every one.", ""},
		{[]float64{-0.08, -2.5, 1.39}, 0, "2 of the 3 trained are within 2 points of full batch.", "every one"},
		{[]float64{-0.08}, 2, "1 of the 1 trained are within 2 points of full batch; 2 not trained yet.", "every one"},
		{nil, 6, "none trained yet", "within"},
	} {
		v := historyVerdict(c.diffs, c.missing)
		if !strings.Contains(v, c.want) || (c.deny != "" && strings.Contains(v, c.deny)) {
			t.Errorf("historyVerdict(%v, %d) = %q, want %q without %q", c.diffs, c.missing, v, c.want, c.deny)
		}
	}
}
