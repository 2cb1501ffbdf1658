package report

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/pcgcn/pcgcn/testkit"
)

// blobs returns n points in `classes` Gaussian clusters of the given spread
// around a circle of radius 10.
func blobs(n, classes int, spread float64, seed uint64) ([][2]float32, []int32) {
	r := rand.New(rand.NewPCG(seed, 1))
	xy := make([][2]float32, n)
	y := make([]int32, n)
	for i := 0; i < n; i++ {
		c := r.IntN(classes)
		a := 2 * math.Pi * float64(c) / float64(classes)
		xy[i] = [2]float32{float32(10*math.Cos(a) + spread*r.NormFloat64()), float32(10*math.Sin(a) + spread*r.NormFloat64())}
		y[i] = int32(c)
	}
	return xy, y
}

// scatterPanel draws one panel alone.
func scatterPanel(path, title string, xy [][2]float32, labels []int32, note string) error {
	return ScatterGrid(path, "", "t-SNE 1", "t-SNE 2", []ScatterPanel{{Title: title, XY: xy, Labels: labels, Note: note}})
}

func TestScatterPanel(t *testing.T) {
	t.Parallel()
	xy, y := blobs(800, 5, 3, 1)
	path := testkit.FigPath(t, "scatter.png")
	if err := scatterPanel(path, "Chameleon, PCGCN: t-SNE of the last hidden layer", xy, y, "silhouette 0.31"); err != nil {
		t.Fatal(err)
	}
	testkit.CheckPNG(t, path, pxW, pxH, true)
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
		xy, y := blobs(n, 5, 12-3*float64(i+4-len(names)), 2)
		panels = append(panels, ScatterPanel{Title: name, XY: xy, Labels: y, Note: "silhouette 0.12"})
	}
	path := testkit.FigPath(t, "scatter_grid.png")
	if err := ScatterGrid(path, "Chameleon: t-SNE of node representations (split 0)", "t-SNE 1", "t-SNE 2", panels); err != nil {
		t.Fatal(err)
	}
	// Panels of 3.2 in plus a 1.2 in legend column, 3.6 in high.
	testkit.CheckPNG(t, path, int((3.2*float64(len(names))+1.2)*figDPI), int(3.6*figDPI), true)
}

func TestScatterErrors(t *testing.T) {
	dir := t.TempDir()
	xy, y := blobs(10, 3, 1, 3)
	if scatterPanel(dir+"/a.png", "t", xy, y[:9], "") == nil {
		t.Error("9 labels for 10 points: no error")
	}
	if scatterPanel(dir+"/b.png", "t", nil, nil, "") == nil {
		t.Error("nil points: no error")
	}
	if scatterPanel(dir+"/d.png", "t", [][2]float32{}, nil, "") == nil {
		t.Error("no points: no error")
	}
	bad := append([][2]float32(nil), xy...)
	bad[0][0] = float32(math.NaN())
	if scatterPanel(dir+"/e.png", "t", bad, y, "") == nil {
		t.Error("NaN coordinate: no error")
	}
	neg := append([]int32(nil), y...)
	neg[0] = -1
	if scatterPanel(dir+"/f.png", "t", xy, neg, "") == nil {
		t.Error("label -1: no error")
	}
	if ScatterGrid(dir+"/g.png", "t", "x", "y", nil) == nil {
		t.Error("no panels: no error")
	}
}
