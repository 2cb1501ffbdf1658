package studies

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/report"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// tinyStudy is a whole study as a new one is written: its cells (MLP and
// GCN on the plan's datasets), its section (a table made with report.Table)
// and its verdict, computed from the saved cells. Registering it is one
// line: an element of the list the plan is made from.
func tinyStudy() study {
	cells := func(p *plan) []experiments.Cell {
		var cs []experiments.Cell
		for _, d := range p.datasets([]string{"texas"}) {
			for _, m := range []string{"mlp", "gcn"} {
				cs = append(cs, experiments.Cell{Study: "tiny", Dataset: d, Model: m, Splits: p.splits})
			}
		}
		return cs
	}
	return study{name: "tiny", help: "a test's own study", optional: true, title: "A tiny study",
		cells: cells,
		section: func(p *plan, w io.Writer) error {
			rs := p.results(cells(p))
			if len(rs) == 0 {
				pending(w, "tiny")
				return nil
			}
			var rows [][]string
			best := rs[0]
			for _, r := range rs {
				rows = append(rows, []string{r.Cell.Model, r.Cell.Dataset, fmt.Sprintf("%.2f ± %.2f", r.TestMean, r.TestStd)})
				if r.TestMean > best.TestMean {
					best = r
				}
			}
			fmt.Fprintln(w, report.Table([]string{"model", "dataset", "test acc. %"}, []report.Align{report.Left, report.Left, report.Right}, rows))
			fmt.Fprintf(w, "**Verdict:** %s is the more accurate on %s.\n", best.Cell.Model, best.Cell.Dataset)
			return nil
		}}
}

// TestAStudyIsOneFileAndOneLine registers tinyStudy beside the registry,
// trains its cells on Texas with quick mode's budget, renders, and finds
// its section in docs/report.md with a row per cell and its verdict.
func TestAStudyIsOneFileAndOneLine(t *testing.T) {
	opt := Options{Only: []string{"tiny"}, Quick: true, Datasets: []string{"texas"}, Splits: []int{0},
		ResultsDir: t.TempDir(), DocsDir: t.TempDir(), Threads: 1, Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true}}
	r, err := newReproduction(opt, append(registry(), tinyStudy()))
	if err != nil {
		t.Fatal(err)
	}
	if plan := r.Plan(); len(plan) != 1 || plan[0].Study != "tiny" || plan[0].Cells != 2 {
		t.Fatalf("plan %+v, want the tiny study's 2 cells", plan)
	}
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(r.DocsDir(), "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), ". A tiny study\n")
	if !ok {
		t.Fatalf("docs/report.md has no section of the tiny study:\n%s", b)
	}
	for _, want := range []string{"| model | dataset | test acc. % |", "| mlp | texas | ", "| gcn | texas | ", "**Verdict:** "} {
		if !strings.Contains(section, want) {
			t.Errorf("the tiny study's section lacks %q:\n%s", want, section)
		}
	}
	if _, err := New(Options{Only: []string{"tiny"}}); err == nil {
		t.Error("the registry knows the test's study")
	}
}
