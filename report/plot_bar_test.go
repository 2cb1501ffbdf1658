package report

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/testkit"
)

func TestBarPlot(t *testing.T) {
	t.Parallel()
	f := BarFigure{Title: "Chameleon: accuracy by SLD (10 splits)", XLabel: "distance", YLabel: "test accuracy (%)",
		Groups: []string{"1\nn = 5210", "2\nn = 3080", "3\nn = 910", "≥5\nn = 40"},
		Series: []BarSeries{{Name: "gcn", Values: []float64{62, 48, 40, math.NaN()}}, {Name: "pcgcn", Values: []float64{75, 60, 47, 35}}}}
	path := testkit.FigPath(t, "bars.png")
	if err := BarPlot(path, f); err != nil {
		t.Fatal(err)
	}
	testkit.CheckPNG(t, path, pxW, pxH, true)
}

func TestBarPlotErrors(t *testing.T) {
	dir := t.TempDir()
	s := []BarSeries{{Name: "a", Values: []float64{1, 2}}}
	if BarPlot(dir+"/a.png", BarFigure{Groups: []string{"x", "y"}}) == nil {
		t.Error("no series: no error")
	}
	if BarPlot(dir+"/b.png", BarFigure{Series: s}) == nil {
		t.Error("no groups: no error")
	}
	if BarPlot(dir+"/c.png", BarFigure{Groups: []string{"x"}, Series: s}) == nil {
		t.Error("2 values for 1 group: no error")
	}
}
