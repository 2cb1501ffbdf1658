package report

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/pcgcn/pcgcn/internal/atomicfile"
)

// Figure geometry shared by the single-panel figures: 6×4 inches at 150 dpi
// (900×600 pixels), with the legend in a column right of the axes so that it
// never covers data.
const (
	figWidth  = 6 * vg.Inch
	figHeight = 4 * vg.Inch
	figDPI    = 150
)

// Font sizes in points.
const (
	titleSize  = 12
	labelSize  = 10
	tickSize   = 9
	legendSize = 9
)

// classColor is the i-th colour of the Tableau 10 palette (cycling), used
// for classes in scatter plots.
func classColor(i int) color.RGBA {
	tab10 := [...]color.RGBA{
		{31, 119, 180, 255},  // blue
		{255, 127, 14, 255},  // orange
		{44, 160, 44, 255},   // green
		{214, 39, 40, 255},   // red
		{148, 103, 189, 255}, // purple
		{140, 86, 75, 255},   // brown
		{227, 119, 194, 255}, // pink
		{127, 127, 127, 255}, // grey
		{188, 189, 34, 255},  // olive
		{23, 190, 207, 255},  // cyan
	}
	return tab10[i%len(tab10)]
}

// pcgcnRedHex is PCGCN's colour in every figure, as in the paper.
const pcgcnRedHex = 0xd62728

// baselineColor is the i-th model colour other than PCGCN's red (cycling):
// the Tableau 10 palette without its red.
func baselineColor(i int) color.RGBA {
	const red = 3 // classColor(3) is PCGCN's red
	i %= 9
	if i >= red {
		i++
	}
	return classColor(i)
}

// isPCGCN reports whether a model name denotes PCGCN (or a variant of it).
func isPCGCN(name string) bool {
	return strings.HasPrefix(strings.ToLower(name), "pcgcn")
}

// modelStyle returns the colour and marker of the i-th baseline, or PCGCN's
// red circle.
func modelStyle(name string, i int) (color.Color, draw.GlyphDrawer) {
	glyphs := [...]draw.GlyphDrawer{draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{}, draw.RingGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}, draw.BoxGlyph{}}
	if isPCGCN(name) {
		return color.RGBA{pcgcnRedHex >> 16, pcgcnRedHex >> 8 & 0xff, pcgcnRedHex & 0xff, 255}, draw.CircleGlyph{}
	}
	return baselineColor(i), glyphs[i%len(glyphs)]
}

// modelStyles assigns styles to models in order, baselines counted apart
// from PCGCN so that the baselines' colours do not depend on where PCGCN is.
func modelStyles(models []string) ([]color.Color, []draw.GlyphDrawer) {
	cs := make([]color.Color, len(models))
	gs := make([]draw.GlyphDrawer, len(models))
	k := 0
	for i, m := range models {
		cs[i], gs[i] = modelStyle(m, k)
		if !isPCGCN(m) {
			k++
		}
	}
	return cs, gs
}

func sans(size vg.Length) font.Font {
	return font.From(font.Font{Typeface: "Liberation", Variant: "Sans"}, size)
}

// newPlot returns a plot with the figures' fonts, a light grid and the
// given title and axis labels.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = sans(titleSize)
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = sans(labelSize)
		a.Tick.Label.Font = sans(tickSize)
	}
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Gray{Y: 225}
	grid.Horizontal.Color = color.Gray{Y: 225}
	grid.Vertical.Dashes = nil
	grid.Horizontal.Dashes = nil
	p.Add(grid)
	return p
}

// newLegend returns an empty legend with the figures' font.
func newLegend() plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font = sans(legendSize)
	l.Top = true
	l.Left = true
	l.ThumbnailWidth = vg.Points(22)
	l.Padding = vg.Points(3)
	return l
}

// percentTicks marks 0, 20, …, 100 on a percent axis.
func percentTicks(lo, hi float64) plot.ConstantTicks {
	var ts []plot.Tick
	for v := 0.0; v <= 100; v += 10 {
		if v < lo-1e-9 || v > hi+1e-9 {
			continue
		}
		label := ""
		if int(v)%20 == 0 || hi-lo <= 50 {
			label = fmt.Sprint(v)
		}
		ts = append(ts, plot.Tick{Value: v, Label: label})
	}
	return plot.ConstantTicks(ts)
}

// savePNG draws the plots side by side (one row) under an optional figure
// title, with the legend in a column at the right, and writes a PNG of w×h
// at figDPI to path (creating its directory; the file appears complete or
// not at all).
func savePNG(path, title string, w, h vg.Length, plots []*plot.Plot, leg *plot.Legend) error {
	c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(figDPI), vgimg.UseBackgroundColor(color.White))
	dc := draw.New(c)
	if title != "" {
		sty := plots[0].Title.TextStyle
		sty.Font = sans(titleSize + 1)
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
		top := vg.Points(6)
		dc.FillText(sty, vg.Point{X: w / 2, Y: h - top}, title)
		dc = draw.Crop(dc, 0, 0, 0, -(top + sty.Height(title) + vg.Points(4)))
	}
	area := dc
	if leg != nil {
		lw := leg.Rectangle(dc).Size().X + vg.Points(12)
		area = draw.Crop(dc, 0, -lw, 0, 0)
		la := draw.Crop(dc, w-lw+vg.Points(4), 0, 0, -vg.Points(30))
		leg.Draw(la)
	}
	if len(plots) == 1 {
		plots[0].Draw(area)
	} else {
		tiles := draw.Tiles{Rows: 1, Cols: len(plots), PadX: vg.Points(6), PadTop: vg.Points(2), PadBottom: vg.Points(2), PadLeft: vg.Points(2), PadRight: vg.Points(2)}
		cs := plot.Align([][]*plot.Plot{plots}, tiles, area)
		for i, p := range plots {
			p.Draw(cs[0][i])
		}
	}
	return writePNG(path, c)
}

// writePNG writes the canvas as a PNG to path (creating its directory; the
// file appears complete or not at all).
func writePNG(path string, c *vgimg.Canvas) error {
	err := atomicfile.WriteFrom(path, func(w io.Writer) error {
		_, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(w)
		return err
	})
	if err != nil {
		return fmt.Errorf("report: writing %s: %w", path, err)
	}
	return nil
}

// finite reports whether v is neither NaN nor infinite.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// lineWithMarkers returns a solid line and its markers through pts.
func lineWithMarkers(pts plotter.XYs, c color.Color, g draw.GlyphDrawer, dashes []vg.Length) (*plotter.Line, *plotter.Scatter, error) {
	l, err := plotter.NewLine(pts)
	if err != nil {
		return nil, nil, err
	}
	l.Color = c
	l.Width = vg.Points(1.5)
	l.Dashes = dashes
	s, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, nil, err
	}
	s.Color = c
	s.Shape = g
	s.Radius = vg.Points(3)
	return l, s, nil
}
