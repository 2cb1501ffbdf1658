package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// HomophilyPlot draws fig:hete for one dataset: for each model, its test
// accuracy on the nodes of each node-homophily bin (lines with markers at
// the bin centres, broken where a bin has no node), and the share of test
// nodes in each bin as a grey dotted line, all on one 0–100% axis. bins come
// from [BucketAccuracy]; models[m] names Acc[m].
func HomophilyPlot(path, title string, bins []Bin, models []string) error {
	if len(bins) == 0 {
		return fmt.Errorf("report: HomophilyPlot: no bins")
	}
	if len(models) == 0 {
		return fmt.Errorf("report: HomophilyPlot: no models")
	}
	for i, b := range bins {
		if len(b.Acc) != len(models) {
			return fmt.Errorf("report: HomophilyPlot: bin %d has %d accuracies for %d models", i, len(b.Acc), len(models))
		}
		if !(b.Hi > b.Lo) || !finite(b.Lo) || !finite(b.Hi) {
			return fmt.Errorf("report: HomophilyPlot: bin %d is [%v, %v)", i, b.Lo, b.Hi)
		}
	}
	p := newPlot(title, "node homophily of the test node", "accuracy, share of test nodes (%)")
	p.X.Min, p.X.Max = bins[0].Lo, bins[len(bins)-1].Hi
	p.Y.Min, p.Y.Max = 0, 100
	p.Y.Tick.Marker = percentTicks(0, 100)
	var ticks []plot.Tick
	for _, b := range bins {
		ticks = append(ticks, plot.Tick{Value: b.Lo, Label: fmt.Sprintf("%.2g", b.Lo)})
	}
	ticks = append(ticks, plot.Tick{Value: bins[len(bins)-1].Hi, Label: fmt.Sprintf("%.2g", bins[len(bins)-1].Hi)})
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	leg := newLegend()

	centre := func(b Bin) float64 { return (b.Lo + b.Hi) / 2 }
	share := make(plotter.XYs, len(bins))
	for i, b := range bins {
		share[i] = plotter.XY{X: centre(b), Y: 100 * b.Share}
	}
	sl, ss, err := lineWithMarkers(share, color.Gray{Y: 110}, nil, []vg.Length{vg.Points(2), vg.Points(3)})
	if err != nil {
		return err
	}
	ss.Shape = nil
	sl.Width = vg.Points(2)
	p.Add(sl)
	plotted := false
	cs, gs := modelStyles(models)
	for m, name := range models {
		var seg plotter.XYs
		var thumbs []plot.Thumbnailer
		flush := func() error {
			if len(seg) == 0 {
				return nil
			}
			l, s, err := lineWithMarkers(seg, cs[m], gs[m], nil)
			if err != nil {
				return err
			}
			p.Add(l, s)
			thumbs = []plot.Thumbnailer{l, s}
			seg = nil
			return nil
		}
		for _, b := range bins {
			if math.IsNaN(b.Acc[m]) {
				if err := flush(); err != nil {
					return err
				}
				continue
			}
			seg = append(seg, plotter.XY{X: centre(b), Y: b.Acc[m]})
		}
		if err := flush(); err != nil {
			return err
		}
		if thumbs != nil {
			leg.Add(name, thumbs...)
			plotted = true
		}
	}
	if !plotted {
		return fmt.Errorf("report: HomophilyPlot: no model has a test node in any bin")
	}
	leg.Add("share of\ntest nodes", sl)
	return savePNG(path, "", figWidth, figHeight, []*plot.Plot{p}, &leg)
}
