package report

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// LogLogSeries is one line of a log-log panel: one implementation of one
// model, points in order of X.
type LogLogSeries struct {
	// Label is the legend entry; series of one label share it.
	Label string
	// Model chooses the colour: PCGCN's red, else a baseline colour per
	// model in order of first appearance.
	Model string
	// Dashed draws the line dashed (another implementation of the model).
	Dashed bool
	X, Y   []float64
}

// LogLogPanel is one panel of LogLogPlot.
type LogLogPanel struct {
	Title, XLabel, YLabel string
	// XPowers labels the x axis in powers of ten (10⁵, 2·10⁵) instead of
	// plain numbers (5, 10, 20).
	XPowers bool
	Series  []LogLogSeries
}

// LogLogPlot draws the panels side by side with logarithmic axes (the
// complexity study: time and memory against n or the degree), one legend
// at the right for every label. A point with X or Y not positive and
// finite is left out; a panel with no point left is an error, as are no
// panels.
func LogLogPlot(path, title string, panels []LogLogPanel) error {
	if len(panels) == 0 {
		return fmt.Errorf("report: LogLogPlot: no panels")
	}
	leg := newLegend()
	labelled := map[string]bool{}
	type look struct {
		c color.Color
		g draw.GlyphDrawer
	}
	looks := map[string]look{}
	baselines := 0
	style := func(model string) (color.Color, draw.GlyphDrawer) {
		l, ok := looks[model]
		if !ok {
			l.c, l.g = modelStyle(model, baselines)
			if !isPCGCN(model) {
				baselines++
			}
			looks[model] = l
		}
		return l.c, l.g
	}
	var plots []*plot.Plot
	for _, pn := range panels {
		p := newPlot(pn.Title, pn.XLabel, pn.YLabel)
		p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
		p.X.Tick.Marker, p.Y.Tick.Marker = decadeTicks{powers: pn.XPowers}, decadeTicks{}
		xLo, xHi, yLo, yHi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for _, s := range pn.Series {
			if len(s.X) != len(s.Y) {
				return fmt.Errorf("report: LogLogPlot: %s has %d x and %d y", s.Label, len(s.X), len(s.Y))
			}
			var pts plotter.XYs
			for i := range s.X {
				if finite(s.X[i]) && finite(s.Y[i]) && s.X[i] > 0 && s.Y[i] > 0 {
					pts = append(pts, plotter.XY{X: s.X[i], Y: s.Y[i]})
					xLo, xHi, yLo, yHi = min(xLo, s.X[i]), max(xHi, s.X[i]), min(yLo, s.Y[i]), max(yHi, s.Y[i])
				}
			}
			if len(pts) == 0 {
				continue
			}
			c, g := style(s.Model)
			var dashes []vg.Length
			if s.Dashed {
				dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			}
			l, sc, err := lineWithMarkers(pts, c, g, dashes)
			if err != nil {
				return err
			}
			p.Add(l, sc)
			if !labelled[s.Label] {
				labelled[s.Label] = true
				leg.Add(s.Label, l, sc)
			}
		}
		if math.IsInf(xLo, 1) {
			return fmt.Errorf("report: LogLogPlot: panel %q has no point", pn.Title)
		}
		// a decade's margin at most, so that a single point still has axes
		p.X.Min, p.X.Max = xLo/1.3, xHi*1.3
		p.Y.Min, p.Y.Max = yLo/1.5, yHi*1.5
		plots = append(plots, p)
	}
	w := 4.2*vg.Inch*vg.Length(len(plots)) + 1.6*vg.Inch
	return savePNG(path, title, w, figHeight, plots, &leg)
}

// decadeTicks marks a logarithmic axis: a labelled tick at each power of
// ten and unlabelled ones at its multiples 2–9, the multiples 2 and 5
// labelled too on an axis of two decades or less. Labels are powers (10⁵,
// 2·10⁵) with powers set, else plain numbers from 0.001 to 99,999 and
// powers beyond.
type decadeTicks struct{ powers bool }

// Ticks returns the ticks between lo and hi (both positive).
func (d decadeTicks) Ticks(lo, hi float64) []plot.Tick {
	short := math.Log10(hi/lo) <= 2
	var ts []plot.Tick
	for k := int(math.Floor(math.Log10(lo))); k <= int(math.Ceil(math.Log10(hi))); k++ {
		for m := 1; m <= 9; m++ {
			v := float64(m) * math.Pow(10, float64(k))
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || short && (m == 2 || m == 5) {
				t.Label = d.label(m, k)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// label writes m·10ᵏ.
func (d decadeTicks) label(m, k int) string {
	if !d.powers && k >= -3 && k <= 4 {
		return strconv.FormatFloat(float64(m)*math.Pow(10, float64(k)), 'f', max(0, -k), 64)
	}
	const sup = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	digits := []rune(sup)
	out := "10"
	if m > 1 {
		out = strconv.Itoa(m) + "·10"
	}
	if k < 0 {
		out += "⁻"
		k = -k
	}
	for _, r := range strconv.Itoa(k) {
		out += string(digits[r-'0'])
	}
	return out
}
