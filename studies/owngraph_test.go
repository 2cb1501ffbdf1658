package studies

import (
	"path/filepath"
	"testing"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/synth"
)

// csbmGraph writes a small cSBM graph (signed Gaussian features, two random
// 60/20/20 splits) into a temporary directory and returns its path, a
// dataset given as a path (--data).
func csbmGraph(t *testing.T, classes int, homophily float64) string {
	t.Helper()
	g, err := synth.Generate(synth.CSBM{Nodes: 200, AvgDegree: 6, Classes: classes, Homophily: homophily, Features: 8, Signal: 3, Seed: 1,
		Splits: graph.SplitSpec{Train: 0.6, Val: 0.2, Test: 0.2, Num: 2, Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "own")
	if err := g.Write(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// mustResolve returns a model's spec and its preset for a dataset.
func mustResolve(t *testing.T, model, dataset string) (models.Spec, models.Config) {
	t.Helper()
	spec, err := models.NewRegistry().Get(model)
	if err != nil {
		t.Fatal(err)
	}
	return spec, spec.Preset(dataset)
}
