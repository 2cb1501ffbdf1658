package report

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Tick is a labelled mark on an axis (an empty label: an unlabelled mark).
type Tick struct {
	// Value is where the mark is, Label what it says.
	Value float64
	Label string
}

// LineSeries is one line of a [LineFigure].
type LineSeries struct {
	// Label is the legend entry.
	Label string
	// Model chooses the colour and marker: PCGCN's red circle, else a
	// baseline's, counted over the figure's series in order (see the
	// figures' palette in plot.go).
	Model string
	// X and Y are the points, joined in order; a point whose Y is not
	// finite breaks the line there.
	X, Y []float64
	// Err, when not nil, draws a vertical error bar of ± Err[i] at each
	// point (a value not finite or negative draws none).
	Err []float64
	// Bold draws the line thicker.
	Bold bool
}

// GuideLine is a reference line of a [LineFigure] without markers (e.g.
// y = x, or the share of nodes in each bin), drawn under the series and
// named last in the legend.
type GuideLine struct {
	// Label is the legend entry.
	Label string
	// X and Y are the points, joined in order.
	X, Y []float64
	// Color and Width are the line's.
	Color color.Color
	Width vg.Length
	// Dashes, when not nil, draws it dashed (on, off lengths).
	Dashes []vg.Length
}

// LineFigure is a single-panel line plot whose y axis is a percentage: the
// lines with markers of Series, an optional guide line, and a legend at the
// right.
type LineFigure struct {
	// Title heads the panel; XLabel and YLabel name the axes.
	Title, XLabel, YLabel string
	// LogX draws the x axis on a logarithmic scale.
	LogX bool
	// The axes' ranges.
	XMin, XMax, YMin, YMax float64
	// XTicks marks the x axis; nil marks it as a percentage, like the y
	// axis (every 10, labelled every 20 on a range over 50).
	XTicks []Tick
	// Series are the lines, drawn and named in the legend in order.
	Series []LineSeries
	// Guide, when not nil, is drawn first and named last.
	Guide *GuideLine
}

// LinePlot draws f and writes it as a PNG to path (single-panel geometry).
// A series with no finite point is left out of the figure and the legend;
// no series with a point is an error.
func LinePlot(path string, f LineFigure) error {
	if len(f.Series) == 0 {
		return fmt.Errorf("report: LinePlot: no series")
	}
	models := make([]string, len(f.Series))
	for i, s := range f.Series {
		if len(s.X) != len(s.Y) || s.Err != nil && len(s.Err) != len(s.Y) {
			return fmt.Errorf("report: LinePlot: %s has %d x, %d y and %d errors", s.Label, len(s.X), len(s.Y), len(s.Err))
		}
		models[i] = s.Model
	}
	p := newPlot(f.Title, f.XLabel, f.YLabel)
	if f.LogX {
		p.X.Scale = plot.LogScale{}
	}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = f.XMin, f.XMax, f.YMin, f.YMax
	p.Y.Tick.Marker = percentTicks(f.YMin, f.YMax)
	if f.XTicks == nil {
		p.X.Tick.Marker = percentTicks(f.XMin, f.XMax)
	} else {
		ts := make([]plot.Tick, len(f.XTicks))
		for i, t := range f.XTicks {
			ts[i] = plot.Tick{Value: t.Value, Label: t.Label}
		}
		p.X.Tick.Marker = plot.ConstantTicks(ts)
	}
	leg := newLegend()
	var guide *plotter.Line
	if g := f.Guide; g != nil {
		xys := make(plotter.XYs, len(g.X))
		for i := range g.X {
			xys[i] = plotter.XY{X: g.X[i], Y: g.Y[i]}
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return err
		}
		l.Color = g.Color
		l.Width = g.Width
		if g.Dashes != nil {
			l.Dashes = g.Dashes
		}
		p.Add(l)
		guide = l
	}
	cs, gs := modelStyles(models)
	drawn := false
	for m, s := range f.Series {
		var bars struct {
			plotter.XYs
			plotter.YErrors
		}
		var segs []plotter.XYs
		var seg plotter.XYs
		for i := range s.Y {
			if !finite(s.Y[i]) {
				if len(seg) > 0 {
					segs = append(segs, seg)
				}
				seg = nil
				continue
			}
			xy := plotter.XY{X: s.X[i], Y: s.Y[i]}
			seg = append(seg, xy)
			if s.Err != nil {
				e := s.Err[i]
				if !finite(e) || e < 0 {
					e = 0
				}
				bars.XYs = append(bars.XYs, xy)
				bars.YErrors = append(bars.YErrors, struct{ Low, High float64 }{e, e})
			}
		}
		if len(seg) > 0 {
			segs = append(segs, seg)
		}
		if len(segs) == 0 {
			continue
		}
		drawn = true
		if s.Err != nil {
			eb, err := plotter.NewYErrorBars(bars)
			if err != nil {
				return err
			}
			eb.Color = cs[m]
			eb.Width = vg.Points(1)
			eb.CapWidth = vg.Points(5)
			p.Add(eb)
		}
		for k, seg := range segs {
			l, sc, err := lineWithMarkers(seg, cs[m], gs[m], nil)
			if err != nil {
				return err
			}
			if s.Bold {
				l.Width = vg.Points(2)
			}
			p.Add(l, sc)
			if k == 0 {
				leg.Add(s.Label, l, sc)
			}
		}
	}
	if !drawn {
		return fmt.Errorf("report: LinePlot: no series has a finite point")
	}
	if guide != nil {
		leg.Add(f.Guide.Label, guide)
	}
	return savePNG(path, "", figWidth, figHeight, []*plot.Plot{p}, &leg)
}
