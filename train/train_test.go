package train

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/checkpoint"
	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// texasGCN returns the real Texas graph with GCN and its preset there, the
// setup of the tests of a split's training loop.
func texasGCN(t *testing.T) (*graph.Graph, models.Spec, models.Config) {
	t.Helper()
	g, err := datasets.Load("texas", datasets.Options{DataDir: datatest.Mirror(t), Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := models.NewRegistry().Get("gcn")
	return g, spec, spec.Preset("texas")
}

func loadCornell(t *testing.T) *graph.Graph {
	t.Helper()
	g, err := datasets.Load("cornell", datasets.Options{DataDir: datatest.Mirror(t), Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// newModel returns the named model with its preset for dataset, built on
// g's split 0 with normalised features and seed 1, that preset and the data.
func newModel(t *testing.T, g *graph.Graph, name, dataset string) (models.Model, models.Config, *models.Data) {
	t.Helper()
	spec, _ := models.NewRegistry().Get(name)
	cfg := spec.Preset(dataset)
	d := models.NewData(g, g.Splits[0], true)
	m, err := spec.New(d, cfg, rng.New(1))
	if err != nil {
		t.Fatal(err)
	}
	return m, cfg, d
}

// runSaved trains split of g and saves the model as model on dataset in a
// new directory, which it returns with the result.
func runSaved(t *testing.T, g *graph.Graph, split int, spec models.Spec, cfg models.Config, o Options, model, dataset string) (*Result, string) {
	t.Helper()
	r, err := Run(g, split, spec, cfg, o)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := Save(dir, model, dataset, cfg, []*Result{r}, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	return r, dir
}

func quickOpts(threads int) Options {
	o := DefaultOptions()
	o.Epochs, o.Patience, o.Threads = 40, 0, threads
	return o
}

// sameOnThreads runs one cell through run with 1 and 2 threads: the scores
// and best epoch, and with params every parameter's bits, must agree. It
// returns the 1-thread result.
func sameOnThreads(t *testing.T, what string, params bool, run func(threads int) (*Result, error)) *Result {
	t.Helper()
	var rs [2]*Result
	for i := range rs {
		r, err := run(i + 1)
		if err != nil {
			t.Fatal(err)
		}
		rs[i] = r
	}
	a, b := rs[0], rs[1]
	if a.Val != b.Val || a.Test != b.Test || a.BestEpoch != b.BestEpoch {
		t.Errorf("%s: threads 1 vs 2: val %v/%v test %v/%v epoch %d/%d", what, a.Val, b.Val, a.Test, b.Test, a.BestEpoch, b.BestEpoch)
	}
	if !params {
		return a
	}
	for i, p := range a.Model.Params() {
		q := b.Model.Params()[i]
		for k, v := range p.Value.Data {
			if math.Float32bits(q.Value.Data[k]) != math.Float32bits(v) {
				t.Fatalf("%s: parameter %s[%d] differs between 1 and 2 threads: %v vs %v", what, p.Name, k, v, q.Value.Data[k])
			}
		}
	}
	return a
}

func TestRunDeterministicAcrossThreads(t *testing.T) {
	g := loadCornell(t)
	spec, _ := models.NewRegistry().Get("pcgcn")
	for _, mode := range []string{"hard", "soft"} {
		sameOnThreads(t, mode, true, func(threads int) (*Result, error) {
			cfg := spec.Preset("cornell")
			models.SetOption(cfg, "bmode", mode)
			return Run(g, 0, spec, cfg, quickOpts(threads))
		})
	}
}

// On a graph of more nodes than tensor's split-K threshold (16,384), two
// threads compute the weight gradients Hᵀ·G by blocks of the node index
// and one thread by row tiles: the trained parameters must still be the
// same bits.
func TestRunDeterministicAcrossThreadsLongGradients(t *testing.T) {
	if testing.Short() {
		t.Skip("a 20,000-node graph")
	}
	g := csbmGraph(t, 20_000, 0.3)
	reg := models.NewRegistry()
	for _, name := range []string{"pcgcn", "gcn"} {
		spec, _ := reg.Get(name)
		sameOnThreads(t, name, true, func(threads int) (*Result, error) {
			o := DefaultOptions()
			o.Epochs, o.Patience, o.Threads = 4, 0, threads
			return Run(g, 0, spec, spec.Preset("csbm"), o)
		})
	}
}

func TestSaveLoadPredictRoundTrip(t *testing.T) {
	g := loadCornell(t)
	reg := models.NewRegistry()
	for _, name := range []string{"pcgcn", "gcn", "mlp"} {
		spec, _ := reg.Get(name)
		cfg := spec.Preset("cornell")
		r, dir := runSaved(t, g, 3, spec, cfg, quickOpts(0), name, "cornell")
		want := Probabilities(r.Model, 1)
		m, data, meta, err := Load(dir, g, reg)
		if err != nil {
			t.Fatal(err)
		}
		got := Probabilities(m, 2)
		for i, v := range want.Data {
			if got.Data[i] != v {
				t.Fatalf("%s: probability %d: saved model %v, reloaded %v", name, i, v, got.Data[i])
			}
		}
		if meta.GraphFingerprint != g.ContentFingerprint() || meta.FeaturePrep != r.Data.Features || meta.RandomSplits != nil {
			t.Errorf("%s: metadata fingerprint %q, features %q, random splits %v", name, meta.GraphFingerprint, meta.FeaturePrep, meta.RandomSplits)
		}
		if meta.Split != 3 || len(data.Train) != len(r.Data.Train) || meta.Numerics != tensor.Numerics() {
			t.Errorf("%s: metadata split %d, %d training nodes, numerics %q", name, meta.Split, len(data.Train), meta.Numerics)
		}
		if acc := Accuracy(got, g.Y, r.Data.Test); math.Abs(acc-r.Test) > 1e-12 {
			t.Errorf("%s: reloaded test accuracy %v, trained %v", name, acc, r.Test)
		}
	}
}

// TestSavedMetaKeys checks that config.json names what its keys hold (the
// training nodes, scores in percent as train prints them) and that a model
// saved before, with the keys train, val and test (fractions) and its files
// at the top of the directory (before per-split models), still loads with
// the same meaning.
func TestSavedMetaKeys(t *testing.T) {
	g := loadCornell(t)
	reg := models.NewRegistry()
	spec, _ := reg.Get("mlp")
	cfg := spec.Preset("cornell")
	opt := quickOpts(1)
	opt.Epochs = 5
	r, dir := runSaved(t, g, 1, spec, cfg, opt, "mlp", "cornell")
	raw, err := checkpoint.ReadConfig(filepath.Join(dir, SplitDir(1)))
	if err != nil {
		t.Fatal(err)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"train", "val", "test"} {
		if _, ok := keys[k]; ok {
			t.Errorf("config.json still has the ambiguous key %q", k)
		}
	}
	var meta SavedMeta
	if err := json.Unmarshal(raw, &meta); err != nil {
		t.Fatal(err)
	}
	if meta.ValMetricPct != 100*r.Val || meta.TestMetricPct != 100*r.Test || meta.TestAccuracyPct != 100*r.TestAccuracy ||
		len(meta.TrainNodes) != len(r.Data.Train) {
		t.Errorf("saved %+v for val %v test %v", meta, r.Val, r.Test)
	}
	// the layout of config.json before the keys were renamed
	delete(keys, "train_nodes")
	delete(keys, "val_metric_pct")
	delete(keys, "test_metric_pct")
	delete(keys, "test_accuracy_pct")
	keys["train"], _ = json.Marshal(r.Data.Train)
	keys["val"], _ = json.Marshal(r.Val)
	keys["test"], _ = json.Marshal(r.Test)
	old, _ := json.Marshal(keys)
	// and the layout before per-split models: config.json and weights.npz
	// at the top of the directory
	if err := os.Rename(filepath.Join(dir, SplitDir(1), checkpoint.WeightsFile), filepath.Join(dir, checkpoint.WeightsFile)); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, SplitDir(1))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, checkpoint.ConfigFile), old, 0o644); err != nil {
		t.Fatal(err)
	}
	m, data, oldMeta, err := Load(dir, g, reg)
	if err != nil {
		t.Fatalf("a model saved with the old keys does not load: %v", err)
	}
	if !slices.Equal(data.Train, r.Data.Train) || oldMeta.ValMetricPct != 100*r.Val || oldMeta.TestMetricPct != 100*r.Test {
		t.Errorf("old keys read as %d training nodes, val %v%%, test %v%%", len(data.Train), oldMeta.ValMetricPct, oldMeta.TestMetricPct)
	}
	if acc := Accuracy(Probabilities(m, 1), g.Y, r.Data.Test); acc != r.TestAccuracy {
		t.Errorf("old-key model: test accuracy %v, trained %v", acc, r.TestAccuracy)
	}
}

func TestLoadRejectsOtherGraph(t *testing.T) {
	g := loadCornell(t)
	reg := models.NewRegistry()
	spec, _ := reg.Get("mlp")
	cfg := spec.Preset("cornell")
	_, dir := runSaved(t, g, 0, spec, cfg, quickOpts(1), "mlp", "cornell")
	other := g.ShallowCopy()
	other.N = 10
	if _, _, _, err := Load(dir, other, reg); err == nil {
		t.Error("loading a model onto a different graph succeeded")
	}
	// Texas has Cornell's node, feature and class counts: the name must differ too
	texas, err := datasets.Load("texas", datasets.Options{DataDir: datatest.Mirror(t), Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := Load(dir, texas, reg); err == nil {
		t.Error("a Cornell model loaded onto Texas")
	}
}

func TestDropClass(t *testing.T) {
	g := loadCornell(t)
	spec, _ := models.NewRegistry().Get("pcgcn")
	opt := quickOpts(1)
	opt.DropClass = DropClass(0)
	r, err := Run(g, 0, spec, spec.Preset("cornell"), opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range r.Data.Train {
		if g.Y[i] == 0 {
			t.Fatal("a class-0 node stayed in the training set")
		}
	}
	if len(r.Data.Train) >= len(g.Splits[0].Train) {
		t.Error("no training node was removed")
	}
	for _, c := range []int{9, 5, -2, -5} {
		opt.DropClass = DropClass(c)
		_, err := Run(g, 0, spec, spec.Preset("cornell"), opt)
		if want := fmt.Sprintf("drop_class must be -1 (none) or a class of cornell in [0,5), got %d", c); err == nil || err.Error() != want {
			t.Errorf("drop class %d: %v, want %q", c, err, want)
		}
	}
}

// TestRunStopsOnDivergence trains with an absurd learning rate: the loss
// becomes NaN or infinite within a few epochs, and Run must stop with an
// error naming the split and the epoch instead of reporting the accuracy of
// garbage parameters.
func TestRunStopsOnDivergence(t *testing.T) {
	g := loadCornell(t)
	spec, _ := models.NewRegistry().Get("mlp")
	cfg := spec.Preset("cornell")
	cfg.Base().LR = 1e30
	opt := quickOpts(1)
	opt.Epochs = 200
	r, err := Run(g, 3, spec, cfg, opt)
	if err == nil {
		t.Fatalf("lr 1e30 trained to val %v test %v without an error", r.Val, r.Test)
	}
	msg := err.Error()
	t.Log(msg)
	if !strings.HasPrefix(msg, "cornell split 3: the training loss became ") || !strings.Contains(msg, " at epoch ") ||
		!strings.Contains(msg, "diverged") || !strings.Contains(msg, "lr 1e+30") {
		t.Errorf("error %q does not name the split, the epoch and the divergence", msg)
	}
}

func TestMetrics(t *testing.T) {
	logits := tensor.FromRows([][]float32{{0, 1}, {2, 0}, {0, 3}, {1, 1.5}})
	y := []int32{1, 0, 0, 1}
	if a := Accuracy(logits, y, []int32{0, 1, 2, 3}); a != 0.75 {
		t.Errorf("accuracy %v, want 0.75", a)
	}
	// scores s = l1 − l0: 1, −2, 3, 0.5; positives {0, 3} → ranks: −2:1, 0.5:2, 1:3, 3:4
	// AUC = (rank sum of positives − 2·3/2) / (2·2) = (3+2−3)/4 = 0.5
	if a := ROCAUC(logits, y, []int32{0, 1, 2, 3}); a != 0.5 {
		t.Errorf("ROC AUC %v, want 0.5", a)
	}
	tie := tensor.FromRows([][]float32{{0, 1}, {0, 1}})
	if a := ROCAUC(tie, []int32{1, 0}, []int32{0, 1}); a != 0.5 {
		t.Errorf("ROC AUC with a tie %v, want 0.5", a)
	}
	if m, s := MeanStd([]float64{1, 3}); m != 2 || s != 1 {
		t.Errorf("MeanStd = %v, %v", m, s)
	}
}

func TestNoDecayParamsGetTheirOwnGroup(t *testing.T) {
	g := loadCornell(t)
	m, cfg, _ := newModel(t, g, "gprgnn", "cornell")
	adam := NewOptimizer(m, cfg)
	gs := adam.Groups()
	if len(gs) != 2 || gs[1].WeightDecay != 0 || len(gs[1].Params()) != 1 || gs[0].WeightDecay != cfg.Base().WeightDecay {
		t.Fatalf("groups: %d", len(gs))
	}
	if n := len(gs[0].Params()) + len(gs[1].Params()); n != len(m.Params()) {
		t.Errorf("%d parameters in groups, model has %d", n, len(m.Params()))
	}
}

// TestOptimizerChoice checks that "adamw" gives decoupled weight decay in
// every group, the default Adam's, and that an unknown name fails the run.
func TestOptimizerChoice(t *testing.T) {
	g := loadCornell(t)
	spec, _ := models.NewRegistry().Get("gprgnn")
	d := models.NewData(g, g.Splits[0], true)
	for _, name := range []string{"", "adam", "adamw"} {
		cfg := spec.Preset("cornell")
		cfg.Base().Optimizer = name
		m, err := spec.New(d, cfg, rng.New(1))
		if err != nil {
			t.Fatal(err)
		}
		adam := NewOptimizer(m, cfg)
		if adam.Decoupled() != (name == "adamw") || len(adam.Groups()) != 2 {
			t.Errorf("optimizer %q: decoupled %v, %d groups", name, adam.Decoupled(), len(adam.Groups()))
		}
	}
	cfg := spec.Preset("cornell")
	cfg.Base().Optimizer = "sgd"
	if _, err := Run(g, 0, spec, cfg, quickOpts(1)); err == nil || !strings.Contains(err.Error(), "sgd") {
		t.Errorf("unknown optimizer: err %v", err)
	}
}

// TestStepReusesBuffers checks that a steady-state training step allocates no
// buffers: the tape recycles every value, gradient and Var, the optimiser
// owns its moments, the kernels run on parked Workers: the step allocates
// nothing at all (TestEveryModelStepAllocatesNothing checks every model).
func TestStepReusesBuffers(t *testing.T) {
	g, err := datasets.Load("chameleon", datasets.Options{DataDir: datatest.Mirror(t), Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	m, cfg, d := newModel(t, g, "pcgcn", "chameleon")
	adam := NewOptimizer(m, cfg)
	exec, stop := tensor.StartExec(2)
	defer stop()
	tape := autograd.NewTape(exec)
	// (chameleon: 2277 nodes, hidden 64 — one activation matrix is 570 KiB)
	adam.Exec = tape.Exec
	tape.RNG = rng.New(2)
	for i := 0; i < 3; i++ {
		Step(tape, m, adam, d)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const steps = 20
	for i := 0; i < steps; i++ {
		Step(tape, m, adam, d)
	}
	runtime.ReadMemStats(&after)
	allocs := float64(after.Mallocs-before.Mallocs) / steps
	bytes := float64(after.TotalAlloc-before.TotalAlloc) / steps
	t.Logf("steady-state step: %.2f allocations, %.1f KiB (a layer's activations alone are %.0f KiB)", allocs, bytes/1024, float64(g.N*cfg.Base().Hidden*4)/1024)
	if bytes > 32<<10 {
		t.Errorf("a training step allocates %.0f KiB: some buffer is not recycled", bytes/1024)
	}
	// (a stray runtime allocation over the 20 steps is not the step's)
	if allocs >= 1 && !testing.Short() {
		t.Errorf("a training step makes %.2f allocations, want none", allocs)
	}
}

// BenchmarkStep times one training step (forward, backward, Adam) of PCGCN
// and GCN on a small and a mid-sized graph at 2 threads, with parked Workers
// (as train.Run does) and with goroutines started per kernel call.
func BenchmarkStep(b *testing.B) {
	for _, ds := range []string{"cornell", "chameleon"} {
		g, err := datasets.Load(ds, datasets.Options{DataDir: datatest.Mirror(b), Offline: true})
		if err != nil {
			b.Fatal(err)
		}
		for _, name := range []string{"pcgcn", "gcn"} {
			spec, _ := models.NewRegistry().Get(name)
			cfg := spec.Preset(ds)
			d := models.NewData(g, g.Splits[0], cfg.Base().NormalizeFeatures)
			for _, workers := range []bool{true, false} {
				b.Run(fmt.Sprintf("%s/%s/workers=%v", ds, name, workers), func(b *testing.B) {
					m, err := spec.New(d, cfg, rng.New(1))
					if err != nil {
						b.Fatal(err)
					}
					exec, stop := tensor.Exec{Threads: 2}, func() {}
					if workers {
						exec, stop = tensor.StartExec(2)
					}
					defer stop()
					adam := NewOptimizer(m, cfg)
					adam.Exec = exec
					tape := autograd.NewTape(exec)
					tape.RNG = rng.New(2)
					Step(tape, m, adam, d)
					b.ReportAllocs()
					for b.Loop() {
						Step(tape, m, adam, d)
					}
				})
			}
		}
	}
}

// TestEveryModelStepAllocatesNothing checks, for every registered model with
// its Chameleon preset (large enough that the kernels run in parallel), that
// a steady-state training step (forward, backward, Adam) makes no heap
// allocation at all: values, gradients, Vars and CSR headers come from the
// tape, operations record package-level functions, and the kernels hand
// their operands to parked workers without closures.
func TestEveryModelStepAllocatesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts are not meaningful under -race")
	}
	g, err := datasets.Load("chameleon", datasets.Options{DataDir: datatest.Mirror(t), Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	reg := models.NewRegistry()
	type stepCase struct {
		name string
		sets map[string]string
	}
	var cases []stepCase
	for _, name := range reg.Names() {
		cases = append(cases, stepCase{name, nil})
	}
	// the classic form of GCN, GraphSAGE and GAT (Platonov's setting, made
	// smaller), with layer and with batch normalisation and the -sep blocks
	for _, name := range []string{"gcn", "sage", "gat"} {
		cases = append(cases,
			stepCase{name, map[string]string{"preset": "platonov", "hidden": "32", "layers": "2"}},
			stepCase{name, map[string]string{"preset": "platonov", "hidden": "32", "layers": "2", "norm": "batch", "ffn": "false", "activation": "relu"}})
		if name != "sage" {
			cases = append(cases, stepCase{name, map[string]string{"preset": "platonov", "hidden": "32", "layers": "2", "sep": "true"}})
		}
	}
	cases = append(cases, stepCase{"pcgcn", map[string]string{"residual": "true", "norm": "layer"}},
		stepCase{"pcgcn", map[string]string{"residual": "true", "norm": "batch"}})
	for _, c := range cases {
		name := c.name
		if c.sets != nil {
			name = fmt.Sprint(c.name, c.sets)
		}
		spec, _ := reg.Get(c.name)
		cfg, err := models.Resolve(spec, "chameleon", models.Sets(c.sets)...)
		if err != nil {
			t.Fatal(err)
		}
		d := models.NewData(g, g.Splits[0], cfg.Base().NormalizeFeatures)
		m, err := spec.New(d, cfg, rng.New(1))
		if err != nil {
			t.Fatal(err)
		}
		exec, stop := tensor.StartExec(2)
		tape := autograd.NewTape(exec)
		tape.RNG = rng.New(2)
		adam := NewOptimizer(m, cfg)
		adam.Exec = exec
		for range 2 { // the tape's pools reach their size
			Step(tape, m, adam, d)
		}
		// the least of three counts: a step that allocates does so in each,
		// while on a loaded machine a hand-off that blocks can make the
		// runtime allocate a wait record (a sudog, when its P's cache is
		// empty) that no code of ours asks for: a heap profile of the
		// sporadic counts (MemProfileRate 1, one step at a time) showed
		// one 112-byte object under Workers.wait's channel receive each
		// time, on whichever model the wait happened to block
		allocs := math.Inf(1)
		for range 3 {
			allocs = min(allocs, testing.AllocsPerRun(2, func() { Step(tape, m, adam, d) }))
		}
		stop()
		if allocs != 0 {
			t.Errorf("%s: %.0f allocations per training step, want none", name, allocs)
		}
	}
}
