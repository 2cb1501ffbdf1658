package report

import (
	"image/color"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/testkit"
	"gonum.org/v1/plot/vg"
)

func TestLinePlot(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	x := []float64{0.1, 0.3, 0.5, 0.7, 0.9}
	f := LineFigure{Title: "accuracy by bin", XLabel: "x", YLabel: "y (%)", XMin: 0, XMax: 1, YMin: 0, YMax: 100,
		XTicks: []Tick{{0, "0"}, {0.5, "0.5"}, {1, "1"}},
		Series: []LineSeries{
			{Label: "gcn", Model: "gcn", X: x, Y: []float64{30, 40, nan, 60, 70}},
			{Label: "pcgcn", Model: "pcgcn", X: x, Y: []float64{50, 55, 60, 70, 90}, Err: []float64{2, 3, nan, -1, 4}, Bold: true},
		},
		Guide: &GuideLine{Label: "share", X: x, Y: []float64{30, 25, 20, 15, 10}, Color: color.Gray{Y: 110}, Width: vg.Points(2), Dashes: []vg.Length{vg.Points(2), vg.Points(3)}}}
	path := testkit.FigPath(t, "lines.png")
	if err := LinePlot(path, f); err != nil {
		t.Fatal(err)
	}
	testkit.CheckPNG(t, path, pxW, pxH, true)
	f.LogX, f.XMin, f.XTicks = true, 0.05, nil
	path = testkit.FigPath(t, "lines-log.png")
	if err := LinePlot(path, f); err != nil {
		t.Fatal(err)
	}
	testkit.CheckPNG(t, path, pxW, pxH, true)
}

func TestLinePlotErrors(t *testing.T) {
	dir := t.TempDir()
	nan := math.NaN()
	if LinePlot(dir+"/a.png", LineFigure{XMax: 1, YMax: 1}) == nil {
		t.Error("no series: no error")
	}
	if LinePlot(dir+"/b.png", LineFigure{XMax: 1, YMax: 1, Series: []LineSeries{{X: []float64{1}, Y: []float64{1, 2}}}}) == nil {
		t.Error("1 x for 2 y: no error")
	}
	if LinePlot(dir+"/c.png", LineFigure{XMax: 1, YMax: 1, Series: []LineSeries{{X: []float64{1, 2}, Y: []float64{1, 2}, Err: []float64{1}}}}) == nil {
		t.Error("1 error for 2 points: no error")
	}
	if LinePlot(dir+"/d.png", LineFigure{XMax: 1, YMax: 1, Series: []LineSeries{{X: []float64{1, 2}, Y: []float64{nan, nan}}}}) == nil {
		t.Error("no finite point: no error")
	}
}
