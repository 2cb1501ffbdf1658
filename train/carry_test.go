package train

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
)

// carryRun trains split 1 of g with the given budget and carry (nil: none)
// and returns the result and the first epoch the run trained (0: none).
func carryRun(t *testing.T, g *graph.Graph, spec models.Spec, cfg models.Config, epochs, patience int, c *Carry) (*Result, int) {
	t.Helper()
	opt := DefaultOptions()
	opt.Epochs, opt.Patience, opt.Threads = epochs, patience, 1
	if c != nil {
		dir := t.TempDir() // the budget's own checkpoint: none saved
		opt.Checkpoint = &Checkpoint{Path: func(int) string { return filepath.Join(dir, "split.state") }, Key: "cell", Carry: c}
	}
	first := 0
	opt.Heartbeat = func(_, epoch, _ int, _ float64) {
		if first == 0 {
			first = epoch
		}
	}
	r, err := Run(g, 1, spec, cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	return r, first
}

// sameRun fails unless a and b (the reference: an uninterrupted run, or
// one from scratch) have the same numbers and parameters, bit for bit.
func sameRun(t *testing.T, what string, a, b *Result) {
	t.Helper()
	if a.Epochs != b.Epochs || a.BestEpoch != b.BestEpoch || a.Val != b.Val || a.Test != b.Test || a.TestAccuracy != b.TestAccuracy {
		t.Fatalf("%s: epochs %d best %d val %v test %v; the reference %d %d %v %v", what,
			a.Epochs, a.BestEpoch, a.Val, a.Test, b.Epochs, b.BestEpoch, b.Val, b.Test)
	}
	ps, qs := a.Model.Params(), b.Model.Params()
	for i := range ps {
		for j, v := range ps[i].Value.Data {
			if math.Float32bits(v) != math.Float32bits(qs[i].Value.Data[j]) {
				t.Fatalf("%s: parameter %s[%d] %v, the reference %v", what, ps[i].Name, j, v, qs[i].Value.Data[j])
			}
		}
	}
}

// TestCarryContinuesBitForBit trains every model of the registry for 12
// epochs keeping its end state, then for 30 continuing it: the longer run
// must start at epoch 13, say it continued 12 epochs, and end with the
// numbers and parameters of 30 epochs from scratch, bit for bit. Nothing of
// a model's training may depend on the budget, and its state (parameters,
// Adam, the dropout generator) must be all a run carries from epoch to
// epoch. The classic form runs with batch normalisation, residual
// connections and dropout, the search spaces' switches. With -short (the
// emulated arm64 run) a few models with the most state: the classic form,
// GAT's attention, PCGCN's and LINKX's.
func TestCarryContinuesBitForBit(t *testing.T) {
	g, _, _ := texasGCN(t)
	reg := models.NewRegistry()
	names := reg.Names()
	if testing.Short() {
		names = []string{"gcn", "gat", "pcgcn", "linkx"}
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			spec, _ := reg.Get(name)
			var sets []models.Override
			switch name {
			case "gcn", "sage", "gat":
				sets = models.Sets(map[string]string{"input_linear": "true", "residual": "true", "norm": "batch", "layers": "2", "dropout": "0.3"})
			}
			cfg, err := models.Resolve(spec, "texas", sets...)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "end.state")
			c := &Carry{Path: func(int) string { return path }, Key: "cell without budget", Keep: true}
			short, _ := carryRun(t, g, spec, cfg, 12, 0, c)
			if short.Epochs != 12 || short.ContinuedEpochs != 0 {
				t.Fatalf("the short run: %d epochs, %d continued; want 12 and 0", short.Epochs, short.ContinuedEpochs)
			}
			c.Keep = false
			continued := 0
			c.Continued = func(_, epoch int, _ float64) { continued = epoch }
			long, first := carryRun(t, g, spec, cfg, 30, 0, c)
			if first != 13 || continued != 12 || long.ContinuedEpochs != 12 {
				t.Errorf("the long run began at epoch %d, Continued said %d, ContinuedEpochs %d; want 13, 12, 12",
					first, continued, long.ContinuedEpochs)
			}
			scratch, _ := carryRun(t, g, spec, cfg, 30, 0, nil)
			sameRun(t, "continued", long, scratch)
		})
	}
}

// TestCarryUnderEarlyStopping: a shorter run that early stopping ended is
// continued only by a run whose patience would not have stopped it sooner,
// and then gives that run's numbers from scratch (here patience 3 ends the
// 60-epoch run early; patience 3 again stops the longer run where it was,
// training nothing; patience 6 trains on; patience 2 and a run of fewer
// epochs than the state's start from scratch). A state under another key
// is not continued, and the run's own checkpoint goes before the carry.
func TestCarryUnderEarlyStopping(t *testing.T) {
	g, spec, cfg := texasGCN(t)
	path := filepath.Join(t.TempDir(), "end.state")
	c := &Carry{Path: func(int) string { return path }, Key: "cell", Keep: true}
	short, _ := carryRun(t, g, spec, cfg, 60, 3, c)
	if short.Epochs >= 60 {
		t.Fatalf("patience 3 did not stop the short run (%d epochs): the test needs it to", short.Epochs)
	}
	kept, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c.Keep = false
	for _, tc := range []struct {
		epochs, patience int
		key              string
		first            int // the first epoch trained: 0 none, 1 from scratch
	}{
		{100, 3, "cell", 0},
		{100, 6, "cell", short.Epochs + 1},
		{100, 0, "cell", short.Epochs + 1},
		{100, 2, "cell", 1},
		{short.Epochs - 1, 6, "cell", 1},
		{100, 6, "another cell", 1},
	} {
		os.WriteFile(path, kept, 0o644)
		c.Key = tc.key
		got, first := carryRun(t, g, spec, cfg, tc.epochs, tc.patience, c)
		if first != tc.first {
			t.Errorf("%d epochs, patience %d, key %q: first epoch %d, want %d", tc.epochs, tc.patience, tc.key, first, tc.first)
		}
		scratch, _ := carryRun(t, g, spec, cfg, tc.epochs, tc.patience, nil)
		sameRun(t, "continued under early stopping", got, scratch)
	}

	// the run's own checkpoint (an interrupted run of this budget, after
	// epoch 40) goes before the end state of the shorter run
	os.WriteFile(path, kept, 0o644)
	c.Key = "cell"
	dir := t.TempDir()
	opt := DefaultOptions()
	opt.Epochs, opt.Patience, opt.Threads = 100, 0, 1
	own := filepath.Join(dir, "split.state")
	opt.Checkpoint = &Checkpoint{Path: func(int) string { return own }, Key: "cell"}
	var at40 []byte
	opt.Heartbeat = func(_, epoch, _ int, _ float64) {
		if epoch == 41 {
			at40, _ = os.ReadFile(own)
		}
	}
	if _, err := Run(g, 1, spec, cfg, opt); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(own, at40, 0o644)
	opt.Checkpoint.Carry = c
	first := 0
	opt.Heartbeat = func(_, epoch, _ int, _ float64) {
		if first == 0 {
			first = epoch
		}
	}
	if _, err := Run(g, 1, spec, cfg, opt); err != nil {
		t.Fatal(err)
	}
	if first != 41 {
		t.Errorf("with its own checkpoint after epoch 40 and a shorter run's end state, the run began at epoch %d, want 41", first)
	}
}

// TestContinues holds the rule of which end states a run may continue.
func TestContinues(t *testing.T) {
	for _, tc := range []struct {
		st               runState
		epochs, patience int
		want             bool
	}{
		{runState{End: true, Epoch: 37, Epochs: 37, Patience: 37}, 111, 111, true}, // a search's rung 1 to rung 2
		{runState{End: true, Epoch: 290, Epochs: 333, Patience: 200}, 1000, 200, true},
		{runState{End: false, Epoch: 37, Epochs: 37, Patience: 37}, 111, 111, false},  // a checkpoint, not an end
		{runState{End: true, Epoch: 120, Epochs: 120, Patience: 0}, 1000, 200, true},  // no stop possible before 120 ≤ 200
		{runState{End: true, Epoch: 300, Epochs: 300, Patience: 0}, 1000, 200, false}, // patience 200 might have stopped it
		{runState{End: true, Epoch: 300, Epochs: 300, Patience: 0}, 1000, 0, true},
		{runState{End: true, Epoch: 300, Epochs: 333, Patience: 250}, 1000, 200, false},
		{runState{End: true, Epoch: 50, Epochs: 50, Patience: 10}, 40, 10, false}, // more epochs than the run has
		{runState{End: true, Epoch: 40, Epochs: 50, Patience: 10}, 40, 10, true},  // stopped early at 40
	} {
		if got := continues(&tc.st, tc.epochs, tc.patience); got != tc.want {
			t.Errorf("state %+v, budget %d/%d: %v, want %v", tc.st, tc.epochs, tc.patience, got, tc.want)
		}
	}
}

// TestCarryKeepFailureKeepsTheResult: an end state that cannot be written
// (its directory is a file) is not kept, and the split's result stands.
func TestCarryKeepFailureKeepsTheResult(t *testing.T) {
	g, spec, cfg := texasGCN(t)
	file := filepath.Join(t.TempDir(), "a file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c := &Carry{Path: func(int) string { return filepath.Join(file, "end.state") }, Key: "cell", Keep: true}
	got, _ := carryRun(t, g, spec, cfg, 15, 0, c)
	scratch, _ := carryRun(t, g, spec, cfg, 15, 0, nil)
	sameRun(t, "with an unwritable end state", got, scratch)
}
