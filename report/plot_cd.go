package report

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// CDFigure is a critical-difference diagram (Demšar 2006): models placed
// on an axis of average ranks, bars joining the groups of models that are
// not significantly different, and the critical difference drawn as a
// scale bar. The figure draws what it is given; which test made the groups
// is the caller's (and its caption's) business.
type CDFigure struct {
	// Title heads the figure (may be empty).
	Title string
	// Models names the models; Ranks holds their average ranks (1 best) in
	// the same order.
	Models []string
	Ranks  []float64
	// Groups lists the groups joined by a bar, each as indices into Models
	// (groups of fewer than two models are ignored).
	Groups [][]int
	// CD is the critical difference drawn as a scale bar above the axis,
	// labelled CDLabel (default "CD"); 0 or NaN draws none.
	CD      float64
	CDLabel string
}

// CD diagram geometry.
const (
	cdRowStep   = 0.24 * vg.Inch // between model rows
	cdGroupStep = 0.09 * vg.Inch // between group bars
	cdTextSize  = 9
)

// cdHeight is the height of a CD diagram of n models and g groups, with
// or without a title and a CD scale bar.
func cdHeight(n, g int, title, cd bool) vg.Length {
	rows := (n + 1) / 2
	h := 0.55*vg.Inch + vg.Length(g)*cdGroupStep + vg.Length(rows)*cdRowStep + 0.2*vg.Inch
	if title {
		h += 0.3 * vg.Inch
	}
	if cd {
		h += 0.2 * vg.Inch
	}
	return h
}

// CDDiagram draws f and writes it as a PNG to path, 6 inches wide and as
// tall as its models and groups need (cdHeight). Rank 1 is at the left of
// the axis; the better half of the models is labelled at the left, the
// other half at the right, each with its average rank; PCGCN's label and
// line are in its red. Fewer than two models, a rank per model missing, a
// rank that is not finite or a group naming a model that does not exist is
// an error.
func CDDiagram(path string, f CDFigure) error {
	k := len(f.Models)
	if k < 2 {
		return fmt.Errorf("report: CDDiagram: %d models, want at least 2", k)
	}
	if len(f.Ranks) != k {
		return fmt.Errorf("report: CDDiagram: %d ranks for %d models", len(f.Ranks), k)
	}
	for i, r := range f.Ranks {
		if !finite(r) {
			return fmt.Errorf("report: CDDiagram: model %s has rank %g", f.Models[i], r)
		}
	}
	var groups [][]int
	for _, g := range f.Groups {
		for _, m := range g {
			if m < 0 || m >= k {
				return fmt.Errorf("report: CDDiagram: a group names model %d of %d", m, k)
			}
		}
		if len(g) >= 2 {
			groups = append(groups, g)
		}
	}
	hasCD := f.CD > 0 && finite(f.CD)
	w, h := figWidth, cdHeight(k, len(groups), f.Title != "", hasCD)
	c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(figDPI), vgimg.UseBackgroundColor(color.White))
	dc := draw.New(c)

	base := plot.New().Title.TextStyle
	text := func(size vg.Length, xa draw.XAlignment, ya draw.YAlignment, col color.Color) draw.TextStyle {
		s := base
		s.Font = sans(size)
		s.XAlign, s.YAlign = xa, ya
		s.Color = col
		return s
	}
	top := h - vg.Points(6)
	if f.Title != "" {
		s := text(titleSize, draw.XCenter, draw.YTop, color.Black)
		dc.FillText(s, vg.Point{X: w / 2, Y: top}, f.Title)
		top -= s.Height(f.Title) + vg.Points(6)
	}

	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return f.Ranks[order[a]] < f.Ranks[order[b]] })
	label := func(m int) string { return fmt.Sprintf("%s (%.2f)", f.Models[m], f.Ranks[m]) }
	nameSty := text(cdTextSize, draw.XRight, draw.YCenter, color.Black)
	var labelW vg.Length
	for m := range f.Models {
		labelW = max(labelW, nameSty.Width(label(m)))
	}
	x0, x1 := labelW+0.35*vg.Inch, w-labelW-0.35*vg.Inch
	lo := math.Min(1, math.Floor(f.Ranks[order[0]]))
	hi := math.Max(float64(k), math.Ceil(f.Ranks[order[k-1]]))
	x := func(r float64) vg.Length { return x0 + vg.Length((r-lo)/(hi-lo))*(x1-x0) }

	thin := draw.LineStyle{Color: color.Black, Width: vg.Points(0.8)}
	// The CD scale bar, above the axis at its left end.
	yCD := top - 0.2*vg.Inch
	if hasCD {
		cdLabel := f.CDLabel
		if cdLabel == "" {
			cdLabel = "CD"
		}
		right := x(math.Min(lo+f.CD, hi))
		dc.StrokeLine2(thin, x(lo), yCD, right, yCD)
		for _, e := range []vg.Length{x(lo), right} {
			dc.StrokeLine2(thin, e, yCD-vg.Points(3), e, yCD+vg.Points(3))
		}
		dc.FillText(text(cdTextSize, draw.XLeft, draw.YCenter, color.Black), vg.Point{X: right + vg.Points(5), Y: yCD}, fmt.Sprintf("%s = %.2f", cdLabel, f.CD))
	}
	// The axis, rank 1 at the left, ticks at every half rank.
	yAxis := top - 0.35*vg.Inch
	if hasCD {
		yAxis -= 0.2 * vg.Inch
	}
	dc.StrokeLine2(thin, x(lo), yAxis, x(hi), yAxis)
	tick := text(tickSize, draw.XCenter, draw.YBottom, color.Black)
	for r := lo; r <= hi+1e-9; r += 0.5 {
		l := vg.Points(3)
		if r == math.Trunc(r) {
			l = vg.Points(6)
			dc.FillText(tick, vg.Point{X: x(r), Y: yAxis + l + vg.Points(2)}, fmt.Sprint(r))
		}
		dc.StrokeLine2(thin, x(r), yAxis, x(r), yAxis+l)
	}
	// The groups' bars, one row each below the axis.
	bar := draw.LineStyle{Color: color.Black, Width: vg.Points(3)}
	y := yAxis - 0.08*vg.Inch
	for _, g := range groups {
		a, b := math.Inf(1), math.Inf(-1)
		for _, m := range g {
			a, b = math.Min(a, f.Ranks[m]), math.Max(b, f.Ranks[m])
		}
		dc.StrokeLine2(bar, x(a)-vg.Points(3), y, x(b)+vg.Points(3), y)
		y -= cdGroupStep
	}
	// The models: a line from the axis down to its row, then out to its label.
	cs, _ := modelStyles(f.Models)
	colorOf := func(m int) color.Color {
		if isPCGCN(f.Models[m]) {
			return cs[m]
		}
		return color.Black
	}
	left := (k + 1) / 2
	y -= 0.06 * vg.Inch
	for i := range k {
		m := order[i]
		row, end := i, x0-0.15*vg.Inch
		sty := nameSty
		if i >= left { // the worse half, from the worst (top row) inwards
			row, end = k-1-i, x1+0.15*vg.Inch
			sty.XAlign = draw.XLeft
		}
		yr := y - vg.Length(row)*cdRowStep
		ls := draw.LineStyle{Color: colorOf(m), Width: vg.Points(1)}
		if isPCGCN(f.Models[m]) {
			ls.Width = vg.Points(1.6)
		}
		dc.StrokeLines(ls, []vg.Point{{X: x(f.Ranks[m]), Y: yAxis}, {X: x(f.Ranks[m]), Y: yr}, {X: end, Y: yr}})
		sty.Color = colorOf(m)
		gap := vg.Points(3)
		if i >= left {
			gap = -gap
		}
		dc.FillText(sty, vg.Point{X: end - gap, Y: yr}, label(m))
	}
	return writePNG(path, c)
}
