package report

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/testkit"
)

func TestLogLogPlot(t *testing.T) {
	t.Parallel()
	n := []float64{1e4, 1e5, 1e6, 5e6}
	panels := []LogLogPanel{
		{Title: "time", XLabel: "nodes n", YLabel: "seconds per epoch", XPowers: true, Series: []LogLogSeries{
			{Label: "PCGCN (ours)", Model: "pcgcn", X: n, Y: []float64{0.08, 0.7, 7, 37}},
			{Label: "PCGCN (PyTorch)", Model: "pcgcn", Dashed: true, X: n[:3], Y: []float64{0.4, 3.5, 35}},
			{Label: "GCN (ours)", Model: "gcn", X: n, Y: []float64{0.02, 0.2, 2.5, math.NaN()}},
		}},
		{Title: "memory", XLabel: "nodes n", YLabel: "peak MiB", Series: []LogLogSeries{
			{Label: "PCGCN (ours)", Model: "pcgcn", X: n, Y: []float64{60, 450, 4200, 20800}},
			{Label: "GCN (ours)", Model: "gcn", X: n[:1], Y: []float64{40}},
		}},
	}
	path := testkit.FigPath(t, "loglog.png")
	if err := LogLogPlot(path, "Complexity", panels); err != nil {
		t.Fatal(err)
	}
	testkit.CheckPNG(t, path, 1500, 600, true)
}

func TestLogLogPlotErrors(t *testing.T) {
	dir := t.TempDir()
	if LogLogPlot(filepath.Join(dir, "a.png"), "t", nil) == nil {
		t.Error("no panels: no error")
	}
	empty := []LogLogPanel{{Title: "p", Series: []LogLogSeries{{Label: "x", Model: "gcn", X: []float64{0, 1}, Y: []float64{1, -1}}}}}
	if LogLogPlot(filepath.Join(dir, "b.png"), "t", empty) == nil {
		t.Error("no positive point: no error")
	}
	bad := []LogLogPanel{{Title: "p", Series: []LogLogSeries{{Label: "x", Model: "gcn", X: []float64{1, 2}, Y: []float64{1}}}}}
	if LogLogPlot(filepath.Join(dir, "c.png"), "t", bad) == nil {
		t.Error("mismatched lengths: no error")
	}
}

func TestDecadeTicks(t *testing.T) {
	var labels []string
	for _, tk := range (decadeTicks{}).Ticks(0.02, 20000) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "0.1 1 10 100 1000 10000" {
		t.Errorf("plain labels %q", got)
	}
	labels = nil
	for _, tk := range (decadeTicks{powers: true}).Ticks(8000, 7e6) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "10⁴ 10⁵ 10⁶" {
		t.Errorf("power labels %q", got)
	}
	if got := (decadeTicks{}).label(1, -5); got != "10⁻⁵" {
		t.Errorf("label(1, -5) = %q", got)
	}
	labels = nil
	for _, tk := range (decadeTicks{powers: true}).Ticks(1500, 4500) { // two decades or less: 2 and 5 too
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "2·10³" {
		t.Errorf("short axis labels %q", got)
	}
	labels = nil
	for _, tk := range (decadeTicks{}).Ticks(4, 90) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "5 10 20 50" {
		t.Errorf("degree labels %q", got)
	}
}
