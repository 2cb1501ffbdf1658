package report

import (
	"math"
	"os"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// scatterPanel draws one panel alone.
func scatterPanel(path, title string, xy *tensor.Dense, labels []int32, note string) error {
	return ScatterGrid(path, "", []ScatterPanel{{Title: title, XY: xy, Labels: labels, Note: note}})
}

func TestScatterPanel(t *testing.T) {
	t.Parallel()
	xy, y := testkit.Blobs(800, 2, 5, 10, 1)
	path := figPath(t, "scatter.png")
	if err := scatterPanel(path, "Chameleon, PCGCN: t-SNE of the last hidden layer", xy, y, "silhouette 0.31"); err != nil {
		t.Fatal(err)
	}
	checkPNG(t, path, pxW, pxH, true)
}

func TestScatterGrid(t *testing.T) {
	t.Parallel()
	// Two small panels keep the race-detector run short; the paper's four
	// when the figure is kept for inspection.
	names := []string{"GCN", "PCGCN"}
	n := 300
	if os.Getenv("PCGCN_FIG_DIR") != "" {
		names, n = []string{"initial features", "GCN", "LINKX", "PCGCN"}, 1500
	}
	var panels []ScatterPanel
	for i, name := range names {
		xy, y := testkit.Blobs(n, 2, 5, 1+2*float64(i+4-len(names)), 2)
		panels = append(panels, ScatterPanel{Title: name, XY: xy, Labels: y, Note: "silhouette 0.12"})
	}
	path := figPath(t, "scatter_grid.png")
	if err := ScatterGrid(path, "Chameleon: t-SNE of node representations (split 0)", panels); err != nil {
		t.Fatal(err)
	}
	// Panels of 3.2 in plus a 1.2 in legend column, 3.6 in high.
	checkPNG(t, path, int((3.2*float64(len(names))+1.2)*figDPI), int(3.6*figDPI), true)
}

func TestPointsDense(t *testing.T) {
	d := PointsDense([][2]float32{{1, 2}, {3, 4}})
	if d.Rows != 2 || d.Cols != 2 || d.At(0, 1) != 2 || d.At(1, 0) != 3 {
		t.Errorf("got %v", d)
	}
}

func TestScatterErrors(t *testing.T) {
	dir := t.TempDir()
	xy, y := testkit.Blobs(10, 2, 3, 1, 3)
	if scatterPanel(dir+"/a.png", "t", xy, y[:9], "") == nil {
		t.Error("9 labels for 10 points: no error")
	}
	if scatterPanel(dir+"/b.png", "t", nil, nil, "") == nil {
		t.Error("nil points: no error")
	}
	if scatterPanel(dir+"/c.png", "t", tensor.NewDense(10, 3), y, "") == nil {
		t.Error("10×3 points: no error")
	}
	if scatterPanel(dir+"/d.png", "t", tensor.NewDense(0, 2), nil, "") == nil {
		t.Error("no points: no error")
	}
	bad := xy.Clone()
	bad.Set(0, 0, float32(math.NaN()))
	if scatterPanel(dir+"/e.png", "t", bad, y, "") == nil {
		t.Error("NaN coordinate: no error")
	}
	neg := append([]int32(nil), y...)
	neg[0] = -1
	if scatterPanel(dir+"/f.png", "t", xy, neg, "") == nil {
		t.Error("label -1: no error")
	}
	if ScatterGrid(dir+"/g.png", "t", nil) == nil {
		t.Error("no panels: no error")
	}
}
