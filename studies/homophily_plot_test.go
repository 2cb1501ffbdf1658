package studies

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/testkit"
)

func TestHomophilyPlot(t *testing.T) {
	t.Parallel()
	bins, _, err := bucketAccuracy(toyResults(), toyHomophily(), 0.1)
	if err != nil {
		t.Fatal(err)
	}
	// Make it look like a real dataset: more nodes at low homophily.
	acc := [][]float64{{30, 60}, {35, 62}, {40, 58}, {48, 55}, {55, 60}, {60, 66}, {70, 72}, {80, 79}, {math.NaN(), 85}, {92, 90}}
	share := []float64{0.25, 0.2, 0.15, 0.1, 0.08, 0.07, 0.05, 0.05, 0.03, 0.02}
	for i := range bins {
		bins[i].Acc = acc[i]
		bins[i].Share = share[i]
	}
	path := testkit.FigPath(t, "homophily.png")
	if err := homophilyPlot(path, "Chameleon: accuracy by node homophily (10 splits)", bins, []string{"gcn", "pcgcn"}); err != nil {
		t.Fatal(err)
	}
	testkit.CheckPNG(t, path, pxW, pxH, true)
}

func TestHomophilyPlotErrors(t *testing.T) {
	bins, _, err := bucketAccuracy(toyResults(), toyHomophily(), 0.2)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if homophilyPlot(dir+"/a.png", "t", nil, []string{"A"}) == nil {
		t.Error("no bins: no error")
	}
	if homophilyPlot(dir+"/b.png", "t", bins, nil) == nil {
		t.Error("no models: no error")
	}
	if homophilyPlot(dir+"/c.png", "t", bins, []string{"A", "B", "C"}) == nil {
		t.Error("3 names for 2 accuracies: no error")
	}
	for i := range bins {
		bins[i].Acc = []float64{math.NaN(), math.NaN()}
	}
	if homophilyPlot(dir+"/d.png", "t", bins, []string{"A", "B"}) == nil {
		t.Error("all accuracies NaN: no error")
	}
}
