package train

import (
	"errors"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/minibatch"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/synth"
	"github.com/pcgcn/pcgcn/tensor"
)

// smallCSBM writes a 600-node contextual SBM and reads it back with its
// features memory-mapped, as a large graph is read for mini-batch training.
func smallCSBM(t *testing.T, homophily float64) *graph.Graph {
	t.Helper()
	return csbmGraph(t, 600, homophily)
}

// csbmGraph is smallCSBM with n nodes.
func csbmGraph(t *testing.T, n int, homophily float64) *graph.Graph {
	t.Helper()
	gen, err := synth.Generate(synth.CSBM{Nodes: n, AvgDegree: 8, Classes: 3, Homophily: homophily, Features: 8, Signal: 1.5, Seed: 7,
		Splits: graph.SplitSpec{Train: 0.6, Val: 0.2, Test: 0.2, Num: 1, Seed: 7}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir() + "/csbm"
	if err := gen.Write(dir); err != nil {
		t.Fatal(err)
	}
	g, err := datasets.LoadPathWith(dir, datasets.Options{MapFeatures: true})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// csbmPresetWithoutDropout returns the named model and its preset for a
// cSBM graph with dropout off, so that two ways of computing agree.
func csbmPresetWithoutDropout(name string) (models.Spec, models.Config) {
	spec, _ := models.NewRegistry().Get(name)
	cfg := spec.Preset("csbm")
	cfg.Base().Dropout = 0
	return spec, cfg
}

func batchOpts(threads, size int, fanouts ...int) Options {
	o := DefaultOptions()
	o.Epochs, o.Patience, o.Threads = 15, 0, threads
	o.Batch = &BatchOptions{Size: size, Fanouts: fanouts}
	return o
}

// With one batch holding every training node and a model that reads no
// neighbour, a mini-batch epoch is a full-batch epoch on the same rows in
// another order: without dropout the models agree to rounding.
func TestOneBatchOfAllTrainingNodesIsFullBatch(t *testing.T) {
	g := smallCSBM(t, 0.8)
	for _, name := range []string{"mlp", "linkx"} {
		t.Run(name, func(t *testing.T) {
			spec, cfg := csbmPresetWithoutDropout(name)
			o := DefaultOptions()
			o.Epochs, o.Patience, o.Threads = 15, 0, 1
			want, err := Run(g, 0, spec, cfg, o)
			if err != nil {
				t.Fatal(err)
			}
			o.Batch = &BatchOptions{Size: len(g.Splits[0].Train)}
			got, err := Run(g, 0, spec, cfg, o)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got.Val-want.Val) > 0.01 || math.Abs(got.Test-want.Test) > 0.01 {
				t.Errorf("one batch: val %.4f test %.4f, full batch: val %.4f test %.4f", got.Val, got.Test, want.Val, want.Test)
			}
			gl := Logits(autograd.NewTape(tensor.Serial), got.Model)
			wl := Logits(autograd.NewTape(tensor.Serial), want.Model)
			for i := range gl.Data {
				if math.Abs(float64(gl.Data[i]-wl.Data[i])) > 1e-3 {
					t.Fatalf("logit %d: %g mini-batch, %g full batch", i, gl.Data[i], wl.Data[i])
				}
			}
		})
	}
}

// Every model with a mini-batch mode learns a homophilous cSBM from
// sampled batches, and a run is the same bit for bit on 1 and 2 threads.
func TestMiniBatchTrainsAndIsDeterministic(t *testing.T) {
	g := smallCSBM(t, 0.8)
	reg := models.NewRegistry()
	for _, name := range []string{"pcgcn", "gcn", "sage", "mlp", "linkx"} {
		t.Run(name, func(t *testing.T) {
			spec, _ := reg.Get(name)
			first := sameOnThreads(t, name, false, func(threads int) (*Result, error) {
				return Run(g, 0, spec, spec.Preset("csbm"), batchOpts(threads, 64, 5, 3))
			})
			if first.Test < 0.6 { // chance is 1/3
				t.Errorf("test accuracy %.3f after mini-batch training", first.Test)
			}
		})
	}
}

func TestMiniBatchRefusals(t *testing.T) {
	g := smallCSBM(t, 0.5)
	reg := models.NewRegistry()
	gat, _ := reg.Get("gat")
	if _, err := Run(g, 0, gat, gat.Preset("csbm"), batchOpts(1, 64)); !errors.Is(err, models.ErrNoBatchMode) {
		t.Errorf("gat in mini-batches: %v, want ErrNoBatchMode", err)
	}
	pc, _ := reg.Get("pcgcn")
	cfg := pc.Preset("csbm")
	if err := models.SetOption(cfg, "uncontrolled", "0.1"); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(g, 0, pc, cfg, batchOpts(1, 64)); !errors.Is(err, models.ErrNoBatchMode) {
		t.Errorf("pcgcn uncontrolled in mini-batches: %v, want ErrNoBatchMode", err)
	}
	for _, o := range []*BatchOptions{{Size: 0}, {Size: 10, Fanouts: []int{0}}, {Size: 10, Fanouts: []int{-2}}} {
		opt := batchOpts(1, 1)
		opt.Batch = o
		if _, err := Run(g, 0, pc, pc.Preset("csbm"), opt); err == nil {
			t.Errorf("batch options %+v accepted", *o)
		}
	}
	if _, err := Run(g, 0, pc, pc.Preset("csbm"), batchOpts(1, 10, 5)); err == nil {
		t.Error("one fanout for a two-hop model accepted")
	}
	// all neighbours is a fanout
	if _, err := Run(g, 0, pc, pc.Preset("csbm"), batchOpts(1, 200, minibatch.AllNeighbours, 2)); err != nil {
		t.Errorf("fanouts all, 2: %v", err)
	}
}

// With every neighbour drawn and every training node a seed, a batch
// computes its seeds' outputs as the whole graph does: the batch's Â rows
// are the whole graph's (minibatch.Sample.AHat) and PCGCN's prototypes come
// from the same training nodes. Without dropout the logits agree to
// rounding.
func TestBatchWithAllNeighboursIsExact(t *testing.T) {
	g := smallCSBM(t, 0.3)
	for _, name := range []string{"gcn", "pcgcn"} {
		t.Run(name, func(t *testing.T) {
			spec, cfg := csbmPresetWithoutDropout(name)
			whole := models.NewDataFor(g, g.Splits[0], cfg)
			m, err := spec.New(whole, cfg, rng.New(1))
			if err != nil {
				t.Fatal(err)
			}
			want := Logits(autograd.NewTape(tensor.Serial), m).Clone()
			bm := m.(models.Batched)
			fan := make([]int, bm.Hops())
			for i := range fan {
				fan[i] = minibatch.AllNeighbours
			}
			s, err := minibatch.NewSampler(g.Adj, fan)
			if err != nil {
				t.Fatal(err)
			}
			b := minibatch.Build(g, s.Sample(whole.Train, rng.New(2)), false)
			if err := bm.Rebind(models.NewBatchData(b.Graph, b.Graph.Splits[0], whole)); err != nil {
				t.Fatal(err)
			}
			got := Logits(autograd.NewTape(tensor.Serial), m)
			for k := 0; k < b.Seeds; k++ {
				for j := 0; j < got.Cols; j++ {
					if d := math.Abs(float64(got.At(k, j) - want.At(int(b.Nodes[k]), j))); d > 1e-4 {
						t.Fatalf("seed %d (node %d) logit %d: batch %g, whole graph %g", k, b.Nodes[k], j, got.At(k, j), want.At(int(b.Nodes[k]), j))
					}
				}
			}
		})
	}
}
