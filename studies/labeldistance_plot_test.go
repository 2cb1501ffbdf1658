package studies

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/testkit"
)

func TestDistancePlot(t *testing.T) {
	t.Parallel()
	bs, err := accuracyByDistance(toyResults(), toySLD, 5)
	if err != nil {
		t.Fatal(err)
	}
	// Realistic numbers: accuracy falls with distance; SLD 4 has no node.
	acc := [][]float64{{62, 75}, {48, 60}, {40, 47}, {math.NaN(), math.NaN()}, {30, 41}, {20, 35}}
	nodes := []int{5210, 3080, 910, 0, 120, 40}
	for i := range bs {
		bs[i].Acc = acc[i]
		bs[i].Nodes = nodes[i]
	}
	path := testkit.FigPath(t, "distance.png")
	if err := distancePlot(path, "Chameleon: accuracy by SLD (10 splits)", bs, []string{"gcn", "pcgcn"}); err != nil {
		t.Fatal(err)
	}
	testkit.CheckPNG(t, path, pxW, pxH, true)
}

func TestDistancePlotErrors(t *testing.T) {
	bs, err := accuracyByDistance(toyResults(), toySLD, 3)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if distancePlot(dir+"/a.png", "t", bs, nil) == nil {
		t.Error("no models: no error")
	}
	if distancePlot(dir+"/b.png", "t", bs, []string{"A"}) == nil {
		t.Error("1 name for 2 accuracies: no error")
	}
	if distancePlot(dir+"/c.png", "t", nil, []string{"A", "B"}) == nil {
		t.Error("no buckets: no error")
	}
	for i := range bs {
		bs[i].Nodes = 0
	}
	if distancePlot(dir+"/d.png", "t", bs, []string{"A", "B"}) == nil {
		t.Error("empty buckets: no error")
	}
}
