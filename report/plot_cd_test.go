package report

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/testkit"
)

func TestCDDiagram(t *testing.T) {
	t.Parallel()
	f := CDFigure{Title: "Average rank over 12 datasets (tuned)",
		Models:  []string{"gcn", "sage", "gat", "mlp", "ggcn", "glognn", "linkx", "gprgnn", "h2gcn-1", "pcgcn"},
		Ranks:   []float64{5.1, 3.2, 6.0, 8.9, 4.4, 3.0, 5.5, 6.3, 7.4, 5.2},
		Groups:  [][]int{{5, 1, 4}, {1, 4, 0, 9, 6}, {4, 0, 9, 6, 2, 7}, {2, 7, 8, 3}, {3}},
		CD:      3.91,
		CDLabel: "CD (Nemenyi, α = 0.05)"}
	path := testkit.FigPath(t, "cd.png")
	if err := CDDiagram(path, f); err != nil {
		t.Fatal(err)
	}
	h := cdHeight(len(f.Models), 4, true, true) // the group of one draws no bar
	testkit.CheckPNG(t, path, pxW, int(math.Round(h.Dots(figDPI))), true)
}

// TestCDDiagramMinimal: two models, no title, no group, no CD.
func TestCDDiagramMinimal(t *testing.T) {
	t.Parallel()
	path := testkit.FigPath(t, "cd_two.png")
	if err := CDDiagram(path, CDFigure{Models: []string{"pcgcn", "gcn"}, Ranks: []float64{1.25, 1.75}, CD: math.NaN()}); err != nil {
		t.Fatal(err)
	}
	testkit.CheckPNG(t, path, pxW, int(math.Round(cdHeight(2, 0, false, false).Dots(figDPI))), true)
}

func TestCDDiagramErrors(t *testing.T) {
	dir := t.TempDir()
	for name, f := range map[string]CDFigure{
		"one model":      {Models: []string{"a"}, Ranks: []float64{1}},
		"ranks missing":  {Models: []string{"a", "b"}, Ranks: []float64{1}},
		"NaN rank":       {Models: []string{"a", "b"}, Ranks: []float64{1, math.NaN()}},
		"group too wide": {Models: []string{"a", "b"}, Ranks: []float64{1, 2}, Groups: [][]int{{0, 2}}},
	} {
		if CDDiagram(dir+"/x.png", f) == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
