package experiments

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit/datatest"
	"github.com/pcgcn/pcgcn/train"
)

// TestCellResumesInsideASplit: a state file of the cell's split, as a run
// killed after epoch 9 leaves it (written here by train.Run through the
// cell's own splitCheckpoint), makes the runner continue that split at
// epoch 10, and the cell's result is an uninterrupted run's.
func TestCellResumesInsideASplit(t *testing.T) {
	data := datasets.Options{DataDir: datatest.Mirror(t), Offline: true}
	c := Cell{Study: "s", Dataset: "texas", Model: "gcn", Splits: []int{0}}
	whole := &Runner{Dir: t.TempDir(), Data: data, Threads: 1, Epochs: 20, Patience: 20}
	want, err := whole.Run([]Cell{c})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	rn := &Runner{Dir: t.TempDir(), Data: data, Threads: 1, Epochs: 20, Patience: 20, Progress: &log}
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
	ck.Every = 0
	opt.Checkpoint = ck
	path := ck.Path(0)
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
	got, err := rn.Run([]Cell{c})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := want[0].PerSplit[0], got[0].PerSplit[0]; a.Test != b.Test || a.Val != b.Val || a.BestEpoch != b.BestEpoch || a.Epochs != b.Epochs {
		t.Errorf("resumed split: %+v, uninterrupted %+v", b.SplitScores, a.SplitScores)
	}
	if !strings.Contains(log.String(), "s gcn/texas split 0: resuming after epoch 9") {
		t.Errorf("the split did not say that it resumed:\n%s", log.String())
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the state file outlived the cell: %v", err)
	}
}
