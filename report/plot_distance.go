package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// DistancePlot draws fig:SLD for one dataset: grouped bars of each model's
// test accuracy per shortest-label-distance bucket (from
// [AccuracyByDistance]; models[m] names Acc[m]), with the accuracy printed
// above each bar and the number of test nodes (pooled over splits) under
// each bucket's name. Buckets without test nodes are left out.
func DistancePlot(path, title string, buckets []DistanceBucket, models []string) error {
	if len(models) == 0 {
		return fmt.Errorf("report: DistancePlot: no models")
	}
	var keep []DistanceBucket
	for i, b := range buckets {
		if len(b.Acc) != len(models) {
			return fmt.Errorf("report: DistancePlot: bucket %d has %d accuracies for %d models", i, len(b.Acc), len(models))
		}
		if b.Nodes > 0 {
			keep = append(keep, b)
		}
	}
	if len(keep) == 0 {
		return fmt.Errorf("report: DistancePlot: no bucket has a test node")
	}
	p := newPlot(title, "shortest label distance in hops (n: test nodes, all splits pooled)", "test accuracy (%)")
	p.Y.Min, p.Y.Max = 0, 108
	p.Y.Tick.Marker = percentTicks(0, 100)
	names := make([]string, len(keep))
	for i, b := range keep {
		names[i] = fmt.Sprintf("%s\nn = %d", b.Label, b.Nodes)
	}
	p.NominalX(names...)
	p.X.Tick.Label.Font = sans(tickSize)

	// The data area is about the figure minus the legend column and the
	// axis; each group of bars takes 80% of its slot.
	slot := (figWidth - 1.9*vg.Inch) / vg.Length(len(keep))
	barW := slot * 0.8 / vg.Length(len(models))
	leg := newLegend()
	cs, _ := modelStyles(models)
	valueFont := sans(7)
	for m, name := range models {
		vals := make(plotter.Values, len(keep))
		var labels []string
		var at plotter.XYs
		for i, b := range keep {
			v := b.Acc[m]
			if math.IsNaN(v) {
				v = 0
			} else {
				labels = append(labels, fmt.Sprintf("%.0f", b.Acc[m]))
				at = append(at, plotter.XY{X: float64(i), Y: b.Acc[m]})
			}
			vals[i] = v
		}
		bars, err := plotter.NewBarChart(vals, barW)
		if err != nil {
			return err
		}
		bars.Color = cs[m]
		bars.LineStyle.Width = 0
		bars.Offset = (vg.Length(m) - vg.Length(len(models)-1)/2) * barW
		p.Add(bars)
		leg.Add(name, bars)
		if len(at) > 0 {
			lab, err := plotter.NewLabels(plotter.XYLabels{XYs: at, Labels: labels})
			if err != nil {
				return err
			}
			for k := range lab.TextStyle {
				lab.TextStyle[k].Font = valueFont
				lab.TextStyle[k].Color = color.Gray{Y: 40}
				lab.TextStyle[k].XAlign = draw.XCenter
			}
			lab.Offset = vg.Point{X: bars.Offset, Y: vg.Points(2)}
			p.Add(lab)
		}
	}
	return savePNG(path, "", figWidth, figHeight, []*plot.Plot{p}, &leg)
}
