package studies

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// TestOneRunOpensADatasetOnce: the studies and the runner share the run's
// one graph cache, so a reproduce run (planning, training, the saved
// results' keys, the candidates and every section) opens each dataset once
// (issue 36: studies/plan.go and the runner each kept a cache and one run
// loaded a dataset twice).
func TestOneRunOpensADatasetOnce(t *testing.T) {
	dir := t.TempDir()
	data := datasets.Options{DataDir: datatest.Mirror(t), Offline: true}
	opt := Options{Only: []string{"main", "stats"}, Datasets: []string{"texas"}, Models: []string{"mlp"}, Splits: []int{0},
		ResultsDir: filepath.Join(dir, "results"), DocsDir: filepath.Join(dir, "docs"), Data: data, Threads: 1}
	r, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	opened := map[string]int{}
	r.p.runner.Graphs = experiments.NewGraphCache(func(name string) (*graph.Graph, error) {
		mu.Lock()
		opened[name]++
		mu.Unlock()
		return datasets.Open(name, data)
	})
	r.p.runner.Epochs, r.p.runner.Patience = 3, 3
	r.Plan()
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	if opened["texas"] != 1 {
		t.Errorf("texas opened %d times, want once", opened["texas"])
	}
	for name, n := range opened {
		if n != 1 {
			t.Errorf("%s opened %d times, want once", name, n)
		}
	}
}
