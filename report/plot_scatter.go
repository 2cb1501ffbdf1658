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

// ScatterPanel is one panel of [ScatterGrid]: 2-D points coloured by
// class (Labels[i] is the class of XY[i]), with a title (e.g. "PCGCN") and a
// note under it (e.g. "silhouette 0.31").
type ScatterPanel struct {
	Title  string
	XY     [][2]float32
	Labels []int32
	Note   string
}

// ScatterGrid draws a row of scatter panels (the paper's t-SNE figure:
// initial features, GCN, LINKX, PCGCN) side by side with one shared class
// legend, the axes named xLabel and yLabel (the y axis on the first panel
// only); title, when not empty, is drawn above the row. Each panel is about 3.2 in wide: every node
// a small dot coloured by its class (Tableau 10 colours; beyond 10 classes
// the marker shape changes too), the classes in the legend with their sizes,
// and the panel's note (e.g. "silhouette 0.31") on a second title line.
func ScatterGrid(path, title, xLabel, yLabel string, panels []ScatterPanel) error {
	if len(panels) == 0 {
		return fmt.Errorf("report: ScatterGrid: no panels")
	}
	classes := 0
	size := map[int32]int{}
	for i, pn := range panels {
		if err := checkScatter(pn); err != nil {
			return fmt.Errorf("report: scatter panel %d (%s): %w", i, pn.Title, err)
		}
		for _, y := range pn.Labels {
			classes = max(classes, int(y)+1)
			if i == 0 {
				size[y]++
			}
		}
	}
	plots := make([]*plot.Plot, len(panels))
	for i, pn := range panels {
		t := pn.Title
		if pn.Note != "" {
			t += "\n" + pn.Note
		}
		p := newPlot(t, xLabel, yLabel)
		p.Title.TextStyle.Font = sans(labelSize + 1)
		if i > 0 {
			p.Y.Label.Text = ""
		}
		p.X.Tick.Marker = compactTicks{}
		p.Y.Tick.Marker = compactTicks{}
		xys := make(plotter.XYs, len(pn.XY))
		for k, pt := range pn.XY {
			xys[k] = plotter.XY{X: float64(pt[0]), Y: float64(pt[1])}
		}
		s, err := plotter.NewScatter(xys)
		if err != nil {
			return err
		}
		// One scatter in node order, so that no class is drawn over all
		// the others.
		labels := pn.Labels
		s.GlyphStyleFunc = func(k int) draw.GlyphStyle { return classGlyph(int(labels[k])) }
		p.Add(s)
		plots[i] = p
	}
	leg := newLegend()
	for c := 0; c < classes; c++ {
		th := classThumb{classGlyph(c)}
		th.Radius = vg.Points(3.5)
		leg.Add(fmt.Sprintf("class %d (%d)", c, size[int32(c)]), th)
	}
	w := 3.2*vg.Inch*vg.Length(len(panels)) + 1.2*vg.Inch
	h := 3.6 * vg.Inch
	if len(panels) == 1 {
		w, h = figWidth, figHeight
	}
	return savePNG(path, title, w, h, plots, &leg)
}

// compactTicks are gonum's default ticks labelled in the shortest form
// ("25" rather than "25.00").
type compactTicks struct{}

// Ticks implements plot.Ticker.
func (compactTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'g', 4, 64)
		}
	}
	return ts
}

// classThumb draws a class's marker in the legend.
type classThumb struct{ draw.GlyphStyle }

// Thumbnail implements plot.Thumbnailer.
func (t classThumb) Thumbnail(c *draw.Canvas) {
	c.DrawGlyph(t.GlyphStyle, c.Center())
}

// classGlyph is the marker of class c: a small translucent dot in the c-th
// Tableau colour, another shape for every further 10 classes.
func classGlyph(c int) draw.GlyphStyle {
	shapes := [...]draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{}}
	col := classColor(c)
	return draw.GlyphStyle{
		Color:  color.NRGBA{R: col.R, G: col.G, B: col.B, A: 200},
		Radius: vg.Points(1.4),
		Shape:  shapes[(c/10)%len(shapes)],
	}
}

func checkScatter(pn ScatterPanel) error {
	if len(pn.XY) == 0 {
		return fmt.Errorf("no points")
	}
	if len(pn.XY) != len(pn.Labels) {
		return fmt.Errorf("%d points but %d labels", len(pn.XY), len(pn.Labels))
	}
	for _, pt := range pn.XY {
		for _, v := range pt {
			if !finite(float64(v)) {
				return fmt.Errorf("point coordinate %v", v)
			}
		}
	}
	for k, y := range pn.Labels {
		if y < 0 || y > math.MaxInt16 {
			return fmt.Errorf("node %d has label %d", k, y)
		}
	}
	return nil
}
