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

// BarSeries is one series of a [BarFigure]: a bar in every group.
type BarSeries struct {
	// Name is the legend entry and chooses the colour (PCGCN's red, else a
	// baseline colour in order of the series).
	Name string
	// Values holds one percentage per group; NaN draws no bar there.
	Values []float64
}

// BarFigure is a grouped bar chart of percentages (0–100%): one group of
// bars per entry of Groups, one bar per series in each.
type BarFigure struct {
	// Title heads the panel; XLabel and YLabel name the axes.
	Title, XLabel, YLabel string
	// Groups names the groups under the x axis (a line break allowed).
	Groups []string
	// Series are the bars of each group, left to right.
	Series []BarSeries
}

// BarPlot draws f with every bar's value printed above it and a legend of
// the series at the right, and writes it as a PNG to path (single-panel
// geometry). No groups or no series is an error, as is a series with a
// number of values other than the number of groups.
func BarPlot(path string, f BarFigure) error {
	if len(f.Series) == 0 {
		return fmt.Errorf("report: BarPlot: no series")
	}
	if len(f.Groups) == 0 {
		return fmt.Errorf("report: BarPlot: no groups")
	}
	names := make([]string, len(f.Series))
	for m, s := range f.Series {
		if len(s.Values) != len(f.Groups) {
			return fmt.Errorf("report: BarPlot: series %s has %d values for %d groups", s.Name, len(s.Values), len(f.Groups))
		}
		names[m] = s.Name
	}
	p := newPlot(f.Title, f.XLabel, f.YLabel)
	p.Y.Min, p.Y.Max = 0, 108
	p.Y.Tick.Marker = percentTicks(0, 100)
	p.NominalX(f.Groups...)
	p.X.Tick.Label.Font = sans(tickSize)

	// The data area is about the figure minus the legend column and the
	// axis; each group of bars takes 80% of its slot.
	slot := (figWidth - 1.9*vg.Inch) / vg.Length(len(f.Groups))
	barW := slot * 0.8 / vg.Length(len(f.Series))
	leg := newLegend()
	cs, _ := modelStyles(names)
	valueFont := sans(7)
	for m, s := range f.Series {
		vals := make(plotter.Values, len(f.Groups))
		var labels []string
		var at plotter.XYs
		for i, v := range s.Values {
			if math.IsNaN(v) {
				v = 0
			} else {
				labels = append(labels, fmt.Sprintf("%.0f", v))
				at = append(at, plotter.XY{X: float64(i), Y: v})
			}
			vals[i] = v
		}
		bars, err := plotter.NewBarChart(vals, barW)
		if err != nil {
			return err
		}
		bars.Color = cs[m]
		bars.LineStyle.Width = 0
		bars.Offset = (vg.Length(m) - vg.Length(len(f.Series)-1)/2) * barW
		p.Add(bars)
		leg.Add(s.Name, bars)
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
