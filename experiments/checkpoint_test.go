package experiments

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit/datatest"
	"github.com/pcgcn/pcgcn/train"
)

// TestCellResumesInsideASplit: a state file of the cell's split, as a run
// killed after epoch 9 leaves it (written here by train.Run through the
// cell's own splitCheckpoint), makes the runner continue that split at
// epoch 10, and the cell's result is an uninterrupted run's.
func TestCellResumesInsideASplit(t *testing.T) {
	want, got, log, path := resumeAfterEpoch9(t, nil)
	if a, b := want[0].PerSplit[0], got[0].PerSplit[0]; a.Test != b.Test || a.Val != b.Val || a.BestEpoch != b.BestEpoch || a.Epochs != b.Epochs {
		t.Errorf("resumed split: %+v, uninterrupted %+v", b.SplitScores, a.SplitScores)
	}
	if !strings.Contains(log, "s gcn/texas split 0: resuming after epoch 9") {
		t.Errorf("the split did not say that it resumed:\n%s", log)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the state file outlived the cell: %v", err)
	}
}

// TestResumedSplitCountsEarlierCPU: a resumed split's CPU seconds include
// what the killed run had spent on it by its last save (here a clock that
// advances 1000 s a reading: 9000 s by epoch 9's save), and a state saved
// without a CPU count leaves the split's CPU unrecorded rather than
// undercounted.
func TestResumedSplitCountsEarlierCPU(t *testing.T) {
	if _, counted := (&Runner{}).cpuClock(); !counted {
		t.Skip("no getrusage on this system: nothing is counted")
	}
	readings := 0
	fake := func() float64 { readings++; return float64(readings) * 1000 }
	_, got, _, _ := resumeAfterEpoch9(t, fake)
	if s := got[0].PerSplit[0].CPUSeconds; s < 9000 || s > 9000+600 {
		t.Errorf("resumed split's CPU %v s, want the killed run's 9000 plus this run's", s)
	}
	_, got, _, _ = resumeAfterEpoch9(t, nil)
	if s := got[0].PerSplit[0].CPUSeconds; s != 0 {
		t.Errorf("resumed from a state without a CPU count: %v s recorded, want none", s)
	}
}

// resumeAfterEpoch9 trains texas' split 0 uninterrupted (want), then keeps
// the state its cell's own splitCheckpoint saved after epoch 9 (counting
// CPU with cpu, when set), and resumes the cell from it (got, with the
// runner's progress log and the state file's path).
func resumeAfterEpoch9(t *testing.T, cpu func() float64) (want, got []*Result, log, path string) {
	t.Helper()
	data, c, want := texasUninterrupted(t)
	var logBuf bytes.Buffer
	rn := &Runner{Dir: t.TempDir(), Data: data, Threads: 1, Epochs: 20, Patience: 20, Progress: &logBuf}
	st := rn.store()
	g, err := st.Graphs.Graph(c.Dataset)
	if err != nil {
		t.Fatal(err)
	}
	spec, cfg, err := rn.resolve(c)
	if err != nil {
		t.Fatal(err)
	}
	fp, err := st.Graphs.Fingerprint(c.Dataset)
	if err != nil {
		t.Fatal(err)
	}
	opt := rn.options()
	if opt.Metric, err = st.Metric(c.Dataset, g); err != nil {
		t.Fatal(err)
	}
	res := &Result{Cell: c, Metric: opt.Metric, Config: cfg, Numerics: tensor.Numerics(), Data: fp, Seed: opt.Seed,
		Epochs: opt.Epochs, Patience: opt.Patience}
	ck := st.splitCheckpoint(c, res)
	ck.Every, ck.CPU = 0, cpu
	opt.Checkpoint = ck
	path = ck.Path(0)
	var kept []byte
	opt.Heartbeat = func(_, epoch, _ int, _ float64) {
		if epoch == 10 {
			kept, _ = os.ReadFile(path)
		}
	}
	if _, err := train.Run(g, 0, spec, cfg, opt); err != nil {
		t.Fatal(err)
	}
	if len(kept) == 0 {
		t.Fatal("no state was saved after epoch 9")
	}
	if err := os.WriteFile(path, kept, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err = rn.Run([]Cell{c})
	if err != nil {
		t.Fatal(err)
	}
	return want, got, logBuf.String(), path
}

// TestStopKeepsTheSplitInTraining: a Runner whose Stop is closed while a
// split trains (here at epoch 3, by a heartbeat the Prepare hook adds)
// ends the split at the end of an epoch with its state saved, though no
// periodic save was due, and returns a cancellation; the same run again
// resumes the split there and ends with an uninterrupted run's numbers.
func TestStopKeepsTheSplitInTraining(t *testing.T) {
	data, c, want := texasUninterrupted(t)
	stop := make(chan struct{})
	var logBuf bytes.Buffer
	rn := &Runner{Dir: t.TempDir(), Data: data, Threads: 1, Epochs: 20, Patience: 20, Progress: &logBuf, Stop: stop,
		Prepare: func(_ Cell, g *graph.Graph, opt *train.Options) (*graph.Graph, error) {
			beat := opt.Heartbeat
			opt.Heartbeat = func(k, epoch, epochs int, bestVal float64) {
				if epoch == 3 {
					close(stop)
				}
				beat(k, epoch, epochs, bestVal)
			}
			return g, nil
		}}
	_, err := rn.Run([]Cell{c})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped run: error %v, want a cancellation", err)
	}
	states, _ := filepath.Glob(filepath.Join(rn.Dir, "s", "*.state"))
	if len(states) != 1 {
		t.Fatalf("state files %v, want the split's", states)
	}
	rn.Stop, rn.Prepare = nil, nil
	got, err := rn.Run([]Cell{c})
	if err != nil {
		t.Fatal(err)
	}
	// the stop reaches the split through the context's goroutine: at the
	// end of epoch 3, or of a later one
	if !strings.Contains(logBuf.String(), "s gcn/texas split 0: resuming after epoch") || strings.Contains(logBuf.String(), "resuming after epoch 1,") || strings.Contains(logBuf.String(), "resuming after epoch 2,") {
		t.Errorf("the split did not resume after epoch 3 or later:\n%s", logBuf.String())
	}
	if a, b := want[0].PerSplit[0], got[0].PerSplit[0]; a.Test != b.Test || a.Val != b.Val || a.BestEpoch != b.BestEpoch || a.Epochs != b.Epochs {
		t.Errorf("resumed split: %+v, uninterrupted %+v", b.SplitScores, a.SplitScores)
	}
}

// texasUninterrupted trains the cell of GCN on texas' split 0 (20 epochs,
// one thread) without interruption, and returns the data options, the
// cell and its result, what a resumed run must reproduce.
func texasUninterrupted(t *testing.T) (datasets.Options, Cell, []*Result) {
	t.Helper()
	data := datasets.Options{DataDir: datatest.Mirror(t), Offline: true}
	c := Cell{Study: "s", Dataset: "texas", Model: "gcn", Splits: []int{0}}
	whole := &Runner{Dir: t.TempDir(), Data: data, Threads: 1, Epochs: 20, Patience: 20}
	want, err := whole.Run([]Cell{c})
	if err != nil {
		t.Fatal(err)
	}
	return data, c, want
}
