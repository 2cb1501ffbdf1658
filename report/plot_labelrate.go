package report

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// meanStdXY is a series with vertical error bars.
type meanStdXY struct {
	plotter.XYs
	plotter.YErrors
}

// LabelRatePlot draws fig:label for one dataset: test accuracy against the
// number of training labels per class, one line per model with error bars
// of ± one standard deviation over the random splits. The x axis is
// logarithmic with a tick at each size; the points of different models are
// shifted a little sideways so that their error bars do not overlap. PCGCN
// is red and drawn on top, as in the paper. series[model][i] belongs to
// sizes[i]; a NaN mean leaves the point out.
func LabelRatePlot(path, title string, sizes []int, series map[string][]MeanStd) error {
	if len(sizes) == 0 {
		return fmt.Errorf("report: LabelRatePlot: no sizes")
	}
	for _, k := range sizes {
		if k <= 0 {
			return fmt.Errorf("report: LabelRatePlot: %d labels per class", k)
		}
	}
	if len(series) == 0 {
		return fmt.Errorf("report: LabelRatePlot: no series")
	}
	// Baselines sorted by name, PCGCN last (drawn on top).
	models := make([]string, 0, len(series))
	for m, s := range series {
		if len(s) != len(sizes) {
			return fmt.Errorf("report: LabelRatePlot: %s has %d points for %d sizes", m, len(s), len(sizes))
		}
		models = append(models, m)
	}
	sort.Slice(models, func(i, j int) bool {
		if isPCGCN(models[i]) != isPCGCN(models[j]) {
			return !isPCGCN(models[i])
		}
		return models[i] < models[j]
	})
	p := newPlot(title, "training labels per class (log scale)", "test accuracy (%, mean ± std over splits)")
	p.X.Scale = plot.LogScale{}
	lo, hi := sizes[0], sizes[0]
	for _, k := range sizes {
		lo, hi = min(lo, k), max(hi, k)
	}
	ticks := make([]plot.Tick, len(sizes))
	for i, k := range sizes {
		ticks[i] = plot.Tick{Value: float64(k), Label: fmt.Sprint(k)}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = float64(lo)/1.25, float64(hi)*1.25
	leg := newLegend()
	cs, gs := modelStyles(models)
	yLo, yHi := math.Inf(1), math.Inf(-1)
	drawn := false
	// order lists the sizes from the smallest up, so lines run left to right
	// and break where a model has no point.
	order := make([]int, len(sizes))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return sizes[order[a]] < sizes[order[b]] })
	for m, name := range models {
		// Spread the models over ±4% of a factor around each size.
		shift := math.Pow(1.04, float64(m)-float64(len(models)-1)/2)
		var all meanStdXY
		var segs []plotter.XYs
		var seg plotter.XYs
		for _, i := range order {
			v := series[name][i]
			if !finite(v.Mean) {
				if len(seg) > 0 {
					segs = append(segs, seg)
				}
				seg = nil
				continue
			}
			sd := v.Std
			if !finite(sd) || sd < 0 {
				sd = 0
			}
			xy := plotter.XY{X: float64(sizes[i]) * shift, Y: v.Mean}
			seg = append(seg, xy)
			all.XYs = append(all.XYs, xy)
			all.YErrors = append(all.YErrors, struct{ Low, High float64 }{sd, sd})
			yLo, yHi = min(yLo, v.Mean-sd), max(yHi, v.Mean+sd)
		}
		if len(seg) > 0 {
			segs = append(segs, seg)
		}
		if len(all.XYs) == 0 {
			continue
		}
		drawn = true
		eb, err := plotter.NewYErrorBars(all)
		if err != nil {
			return err
		}
		eb.Color = cs[m]
		eb.Width = vg.Points(1)
		eb.CapWidth = vg.Points(5)
		p.Add(eb)
		for k, seg := range segs {
			l, s, err := lineWithMarkers(seg, cs[m], gs[m], nil)
			if err != nil {
				return err
			}
			if isPCGCN(name) {
				l.Width = vg.Points(2)
			}
			p.Add(l, s)
			if k == 0 {
				leg.Add(name, l, s)
			}
		}
	}
	if !drawn {
		return fmt.Errorf("report: LabelRatePlot: every point is NaN")
	}
	p.Y.Min = math.Max(0, 10*math.Floor(yLo/10-0.2))
	p.Y.Max = math.Min(100, 10*math.Ceil(yHi/10+0.2))
	p.Y.Tick.Marker = percentTicks(p.Y.Min, p.Y.Max)
	return savePNG(path, "", figWidth, figHeight, []*plot.Plot{p}, &leg)
}
