package experiments

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/train"
)

// TestStoreAlone: the store saves a result under its cell's key and gives
// it back only for the cell, configuration and key it was computed with,
// viewed on the splits asked for, reading each graph once; it trains
// nothing and needs no runner.
func TestStoreAlone(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "own")
	if err := os.Mkdir(own, 0o755); err != nil {
		t.Fatal(err)
	}
	writeUserGraph(t, own)
	opens := 0
	cache := NewGraphCache(func(name string) (*graph.Graph, error) { opens++; return datasets.Open(name, datasets.Options{}) })
	def := train.DefaultOptions()
	st := &Store{Dir: filepath.Join(dir, "results"), Seed: def.Seed, Epochs: def.Epochs, Patience: def.Patience, Graphs: cache}

	c := Cell{Study: "s", Dataset: own, Model: "mlp", Splits: []int{0, 1}}
	spec, _ := models.NewRegistry().Get("mlp")
	cfg, err := models.Resolve(spec, own)
	if err != nil {
		t.Fatal(err)
	}
	var saved any
	b, _ := json.Marshal(cfg)
	json.Unmarshal(b, &saved)
	fp, err := cache.Fingerprint(own)
	if err != nil {
		t.Fatal(err)
	}
	m, err := st.Metric(own, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &Result{Cell: c, Metric: m, Config: saved, Data: fp, Seed: def.Seed, Epochs: def.Epochs, Patience: def.Patience,
		PerSplit: []SplitResult{{SplitScores: train.SplitScores{Split: 0, Test: 50}}, {SplitScores: train.SplitScores{Split: 1, Test: 70}}}}
	summarize(r)
	if err := st.Save(r); err != nil {
		t.Fatal(err)
	}
	if st.Path(c) != filepath.Join(st.Dir, "s", c.Key()+".json") {
		t.Errorf("path %s", st.Path(c))
	}
	if got := st.Exact(c); got == nil || got.TestMean != 60 {
		t.Fatalf("exact: %+v", got)
	}
	one := c
	one.Splits = []int{1}
	if got := st.Exact(one); got == nil || got.TestMean != 70 || len(got.PerSplit) != 1 {
		t.Errorf("the view on split 1: %+v", got)
	}
	more := c
	more.Splits = []int{0, 1, 2}
	if st.Exact(more) != nil {
		t.Error("a result lacking split 2 answered for it")
	}
	other := c
	other.Sets = map[string]string{"hidden": "8"}
	if st.Exact(other) != nil {
		t.Error("a result answered for another configuration")
	}
	seven := *st
	seven.Seed = 7
	if seven.Exact(c) != nil || seven.Read(c) == nil {
		t.Error("another seed: the file is read but must not answer")
	}
	auc := *st
	auc.Metrics = map[string]datasets.Metric{own: datasets.Accuracy}
	if m == datasets.Accuracy {
		auc.Metrics[own] = datasets.ROCAUC
	}
	if auc.Exact(c) != nil {
		t.Error("a result of another metric answered")
	}
	if opens != 1 {
		t.Errorf("the graph was opened %d times, want once", opens)
	}
}

// TestGraphCacheOpensOnceAndRemembersFailures: a dataset is opened once,
// and one that failed is not tried again.
func TestGraphCacheOpensOnceAndRemembersFailures(t *testing.T) {
	opens := map[string]int{}
	cache := NewGraphCache(func(name string) (*graph.Graph, error) {
		opens[name]++
		if name == "missing" {
			return nil, os.ErrNotExist
		}
		return &graph.Graph{Name: name}, nil
	})
	for range 3 {
		if _, err := cache.Graph("a"); err != nil {
			t.Fatal(err)
		}
		if _, err := cache.Fingerprint("missing"); err == nil {
			t.Error("a missing dataset has a fingerprint")
		}
	}
	if opens["a"] != 1 || opens["missing"] != 1 {
		t.Errorf("opens %v, want one each", opens)
	}
}
