package studies

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/testkit"
)

func TestMatchingPlot(t *testing.T) {
	t.Parallel()
	pts := map[string][]point{
		"chameleon": {{40, 45}, {55, 58}, {70, 71}, {85, 84}, {100, 97}},
		"squirrel":  {{30, 38}, {48, 50}, {66, 65}, {83, 81}, {100, 96}},
		"cora":      {{86, 87}, {90, 88}, {93, 89}, {97, 90}, {100, 91}},
	}
	path := testkit.FigPath(t, "matching.png")
	if err := matchingPlot(path, "Accuracy vs matching degree (PCGCN, 10 splits)", pts); err != nil {
		t.Fatal(err)
	}
	testkit.CheckPNG(t, path, pxW, pxH, true)
}

func TestMatchingPlotErrors(t *testing.T) {
	dir := t.TempDir()
	if matchingPlot(dir+"/a.png", "t", nil) == nil {
		t.Error("no series: no error")
	}
	if matchingPlot(dir+"/b.png", "t", map[string][]point{"cora": nil}) == nil {
		t.Error("empty series: no error")
	}
	if matchingPlot(dir+"/c.png", "t", map[string][]point{"cora": {{math.NaN(), 3}}}) == nil {
		t.Error("NaN point: no error")
	}
}
