package experiments

import (
	"errors"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
)

// A search trial is priced by its width and depth against the preset: a
// rate measured on a 64-wide, 2-layer GCN prices a 512-wide, 10-layer one
// layerWork's 180 times dearer (8·4.5·10 over 1·1·2), and the preset itself
// and cells without overrides as before.
func TestEstimatorPricesConfigurations(t *testing.T) {
	reg := models.NewRegistry()
	cell := func(sets map[string]string) Cell {
		return Cell{Study: "search", Model: "gcn", Dataset: "chameleon", Sets: sets, Splits: []int{0}}
	}
	small, wide := cell(map[string]string{"hidden": "64", "layers": "2"}), cell(map[string]string{"hidden": "512", "layers": "10"})
	if w := configWork(reg, cell(nil)); w != 1 {
		t.Errorf("the preset's work %v, want 1", w)
	}
	ratio := configWork(reg, wide) / configWork(reg, small)
	if math.Abs(ratio-180) > 1e-9 {
		t.Errorf("512 wide × 10 layers against 64 × 2: %v times the work, want 180", ratio)
	}
	noGraph := NewGraphCache(func(string) (*graph.Graph, error) { return nil, errors.New("no data") })
	est := &Estimator{Graphs: noGraph, Work: func(c Cell) float64 { return configWork(reg, c) }}
	measured := &Result{Cell: small, PerSplit: make([]SplitResult, 1)}
	measured.Seconds = 2
	est.Add(measured)
	if got, want := est.Cost(wide), 2*ratio; math.Abs(got-want) > 1e-9*want {
		t.Errorf("the wide trial's split: %v s, want %v (the small one's 2 s times %v)", got, want, ratio)
	}
	if got := est.Cost(small); math.Abs(got-2) > 1e-12 {
		t.Errorf("the measured configuration's split: %v s, want 2", got)
	}
	plain := &Estimator{Graphs: noGraph}
	plain.Add(measured)
	if got := plain.Cost(wide); got != 2 {
		t.Errorf("without Work every configuration costs the measured %v s, got %v", 2, got)
	}
}
