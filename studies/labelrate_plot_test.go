package studies

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/testkit"
)

func toyLabelRateSeries() map[string][]meanStd {
	return map[string][]meanStd{
		"gcn":   {{42, 2}, {41, 2.5}, {39, 3}, {37, 3}, {33, 4}, {29, 5}, {24, 6}},
		"gat":   {{43, 2}, {42, 2.2}, {40, 2.8}, {38, 3.5}, {34, 4}, {math.NaN(), math.NaN()}, {23, 6}},
		"mlp":   {{36, 2}, {35, 2}, {33, 2}, {31, 3}, {28, 3}, {25, 4}, {21, 5}},
		"pcgcn": {{55, 1.5}, {54, 1.8}, {52, 2}, {50, 2.5}, {46, 3}, {41, 4}, {33, 5}},
	}
}

func TestLabelRatePlot(t *testing.T) {
	t.Parallel()
	path := testkit.FigPath(t, "labelrate.png")
	if err := labelRatePlot(path, "Chameleon: accuracy vs labels per class (10 random splits)", []int{70, 50, 30, 20, 10, 5, 2}, toyLabelRateSeries()); err != nil {
		t.Fatal(err)
	}
	testkit.CheckPNG(t, path, pxW, pxH, true)
}

func TestLabelRatePlotErrors(t *testing.T) {
	dir := t.TempDir()
	sizes := []int{70, 50, 30, 20, 10, 5, 2}
	if labelRatePlot(dir+"/a.png", "t", nil, toyLabelRateSeries()) == nil {
		t.Error("no sizes: no error")
	}
	if labelRatePlot(dir+"/b.png", "t", sizes, nil) == nil {
		t.Error("no series: no error")
	}
	if labelRatePlot(dir+"/c.png", "t", sizes[:3], toyLabelRateSeries()) == nil {
		t.Error("3 sizes for 7 points: no error")
	}
	if labelRatePlot(dir+"/d.png", "t", []int{0, 1, 2, 3, 4, 5, 6}, toyLabelRateSeries()) == nil {
		t.Error("size 0 on a log axis: no error")
	}
	nan := meanStd{math.NaN(), math.NaN()}
	if labelRatePlot(dir+"/e.png", "t", []int{1, 2}, map[string][]meanStd{"gcn": {nan, nan}}) == nil {
		t.Error("all NaN: no error")
	}
}
