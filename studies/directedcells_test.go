package studies

import (
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// TestCommittedDirectedCellsStayCurrent: the main table's candidates on
// the directed graphs name it in their key (the dataset's -directed twin,
// and directed=true for PCGCN, whose preset on a -directed dataset is
// directed since issue 35), so the cells committed under results/main
// still load as current for every model with a directed candidate: the
// new default changed no saved cell's meaning.
func TestCommittedDirectedCellsStayCurrent(t *testing.T) {
	p := newPlan(Options{ResultsDir: "../results", Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true}})
	n := 0
	for _, model := range []string{"pcgcn", "gcnii", "ggcn"} {
		for _, ds := range []string{"chameleon", "squirrel"} {
			c := mainTableCells([]string{model}, []string{ds}, allSplits(10))[0]
			for _, k := range p.runner.Candidates(c) {
				if k.Dataset != ds+"-directed" {
					continue
				}
				n++
				if p.runner.LoadExact(k) == nil {
					t.Errorf("committed cell %s does not load as current", k.Key())
				}
			}
		}
	}
	if n != 12 { // two feature preprocessings × 3 models × 2 datasets
		t.Errorf("%d directed candidates, want 12", n)
	}
}
