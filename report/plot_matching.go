package report

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// MatchingPlot draws fig:corr: test accuracy against the matching degree
// (both in percent), one line with markers per dataset (points joined in
// order of X), and the bold black line y = x the paper draws as the
// reference of perfect fitting. Both axes run from 0 to 100%.
func MatchingPlot(path, title string, points map[string][]Point) error {
	if len(points) == 0 {
		return fmt.Errorf("report: MatchingPlot: no series")
	}
	names := make([]string, 0, len(points))
	for d, ps := range points {
		if len(ps) == 0 {
			return fmt.Errorf("report: MatchingPlot: series %s is empty", d)
		}
		for _, pt := range ps {
			if !finite(pt.X) || !finite(pt.Y) {
				return fmt.Errorf("report: MatchingPlot: series %s has point (%v, %v)", d, pt.X, pt.Y)
			}
		}
		names = append(names, d)
	}
	sort.Strings(names)
	p := newPlot(title, "matching degree (%)", "test accuracy (%)")
	lo, hi := 0.0, 100.0
	for _, ps := range points {
		for _, pt := range ps {
			lo = math.Min(lo, math.Min(pt.X, pt.Y))
			hi = math.Max(hi, math.Max(pt.X, pt.Y))
		}
	}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = lo, hi, lo, hi
	p.X.Tick.Marker = percentTicks(lo, hi)
	p.Y.Tick.Marker = percentTicks(lo, hi)
	ref, err := plotter.NewLine(plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}})
	if err != nil {
		return err
	}
	ref.Color = color.Black
	ref.Width = vg.Points(3)
	p.Add(ref)
	leg := newLegend()
	for i, d := range names {
		ps := append([]Point(nil), points[d]...)
		sort.SliceStable(ps, func(a, b int) bool { return ps[a].X < ps[b].X })
		xys := make(plotter.XYs, len(ps))
		for k, pt := range ps {
			xys[k] = plotter.XY{X: pt.X, Y: pt.Y}
		}
		c, g := modelStyle("", i)
		l, s, err := lineWithMarkers(xys, c, g, nil)
		if err != nil {
			return err
		}
		p.Add(l, s)
		leg.Add(d, l, s)
	}
	leg.Add("perfect fitting\n(y = x)", ref)
	return savePNG(path, "", figWidth, figHeight, []*plot.Plot{p}, &leg)
}
