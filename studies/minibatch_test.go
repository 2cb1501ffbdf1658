package studies

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/internal/datatest"
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
	if len(cells) != 4 { // pcgcn and gcn, full and mini-batch
		t.Fatalf("%d cells, want 4", len(cells))
	}
	if _, err := p.runner.Run(cells); err != nil {
		t.Fatal(err)
	}
	mb := minibatchCells(p)[1] // the full-batch choice is saved now
	if mb.Batch == nil || !strings.Contains(mb.Key(), "batch1024-f10-5") {
		t.Fatalf("mini-batch cell %+v, key %s", mb, mb.Key())
	}
	b.Reset()
	if err := renderMinibatch(p, &b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| texas | pcgcn | accuracy |", "| texas | gcn | accuracy |", "**Verdict:**"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("rendered section lacks %q:\n%s", want, b.String())
		}
	}
}
