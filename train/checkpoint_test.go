package train

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// TestCheckpointResumesBitForBit kills nothing but keeps, from a run that
// saves its state after every epoch, the file as it was after epoch 9, then
// trains again from that file: the resumed run must end with the
// uninterrupted run's result and parameters, bit for bit, and remove its
// file. A file of another key is ignored (the run starts afresh and gives
// the same numbers too). Models with dropout, so that the generator's
// position matters.
func TestCheckpointResumesBitForBit(t *testing.T) {
	g, err := datasets.Load("texas", datasets.Options{DataDir: datatest.Mirror(t), Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	reg := models.NewRegistry()
	for _, name := range []string{"gcn", "pcgcn"} {
		t.Run(name, func(t *testing.T) {
			spec, _ := reg.Get(name)
			cfg := spec.Preset("texas")
			dir := t.TempDir()
			path := filepath.Join(dir, "split.state")
			kept := filepath.Join(dir, "kept.state")
			opt := DefaultOptions()
			opt.Epochs, opt.Patience, opt.Threads = 30, 0, 2
			opt.Checkpoint = &Checkpoint{Path: func(int) string { return path }, Key: "cell"}
			opt.Heartbeat = func(_, epoch, _ int, _ float64) {
				if epoch == 10 { // the file holds epoch 9's state: the save comes after the heartbeat
					b, err := os.ReadFile(path)
					if err != nil {
						t.Fatal(err)
					}
					os.WriteFile(kept, b, 0o644)
				}
			}
			whole, err := Run(g, 1, spec, cfg, opt)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("the state file outlived the split: %v", err)
			}
			for key, want := range map[string]int{"cell": 10, "another cell": 1} {
				firstEpoch := 0
				opt.Heartbeat = func(_, epoch, _ int, _ float64) {
					if firstEpoch == 0 {
						firstEpoch = epoch
					}
				}
				b, err := os.ReadFile(kept)
				if err != nil {
					t.Fatal(err)
				}
				os.WriteFile(path, b, 0o644)
				opt.Checkpoint.Key = key
				resumed, err := Run(g, 1, spec, cfg, opt)
				if err != nil {
					t.Fatal(err)
				}
				if firstEpoch != want {
					t.Errorf("key %q: the run began at epoch %d, want %d", key, firstEpoch, want)
				}
				sameRun(t, fmt.Sprintf("key %q: resumed", key), resumed, whole)
			}
		})
	}
}

// TestCheckpointCarriesCPUSeconds: a state keeps the CPU seconds the split
// has spent by its save (here a clock advancing 1000 s a reading: 9000 s by
// epoch 9's), Resumed hands them back, and adds the resumed run's part to
// the next save; a state saved without a clock hands back "unknown" (−1).
func TestCheckpointCarriesCPUSeconds(t *testing.T) {
	g, spec, cfg := texasGCN(t)
	for _, counted := range []bool{true, false} {
		dir := t.TempDir()
		path := filepath.Join(dir, "split.state")
		readings := 0
		clock := func() float64 { readings++; return float64(readings) * 1000 }
		opt := DefaultOptions()
		opt.Epochs, opt.Patience, opt.Threads = 20, 0, 1
		opt.Checkpoint = &Checkpoint{Path: func(int) string { return path }, Key: "cell"}
		if counted {
			opt.Checkpoint.CPU = clock
		}
		var kept []byte
		opt.Heartbeat = func(_, epoch, _ int, _ float64) {
			if epoch == 10 {
				kept, _ = os.ReadFile(path)
			}
		}
		if _, err := Run(g, 0, spec, cfg, opt); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(path, kept, 0o644)
		readings = 0
		got, gotEpoch := 0.0, 0
		var atEpoch15 []byte
		opt.Checkpoint.Resumed = func(_, epoch int, cpu float64) { got, gotEpoch = cpu, epoch }
		opt.Heartbeat = func(_, epoch, _ int, _ float64) {
			if epoch == 16 {
				atEpoch15, _ = os.ReadFile(path)
			}
		}
		if _, err := Run(g, 0, spec, cfg, opt); err != nil {
			t.Fatal(err)
		}
		want := 9000.0
		if !counted {
			want = -1
		}
		if gotEpoch != 9 || got != want {
			t.Errorf("counted %v: resumed after epoch %d with %v CPU seconds, want 9 and %v", counted, gotEpoch, got, want)
		}
		// the resumed run reads its clock at its start (1000) and at each
		// save: epoch 15's is its 7th reading, 6000 s after its start
		os.WriteFile(path, atEpoch15, 0o644)
		opt.Heartbeat = nil
		readings = 0
		if _, err := Run(g, 0, spec, cfg, opt); err != nil {
			t.Fatal(err)
		}
		if want = 15000; !counted {
			want = -1
		}
		if gotEpoch != 15 || got != want {
			t.Errorf("counted %v: second resume after epoch %d with %v CPU seconds, want 15 and %v", counted, gotEpoch, got, want)
		}
	}
}

// TestStopSavesTheSplitsState: a split stopped through Options.Stop (closed
// during epoch 12, with a Checkpoint whose Every would not save for an
// hour) returns ErrStopped and leaves its state after epoch 12 on disk;
// the next run resumes at epoch 13 and ends with the uninterrupted run's
// numbers, bit for bit. Without a Checkpoint, Stop ends the split all the
// same, and a split at its last epoch ends as usual.
func TestStopSavesTheSplitsState(t *testing.T) {
	g, spec, cfg := texasGCN(t)
	path := filepath.Join(t.TempDir(), "split.state")
	opt := DefaultOptions()
	opt.Epochs, opt.Patience, opt.Threads = 30, 0, 1
	whole, err := Run(g, 2, spec, cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	opt.Checkpoint = &Checkpoint{Path: func(int) string { return path }, Key: "cell", Every: time.Hour}
	opt.Stop = stop
	opt.Heartbeat = func(_, epoch, _ int, _ float64) {
		if epoch == 12 {
			close(stop)
		}
	}
	if _, err := Run(g, 2, spec, cfg, opt); !errors.Is(err, ErrStopped) {
		t.Fatalf("stopped run: error %v, want ErrStopped", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the stopped split left no state: %v", err)
	}
	first := 0
	opt.Stop, opt.Heartbeat = nil, func(_, epoch, _ int, _ float64) {
		if first == 0 {
			first = epoch
		}
	}
	resumed, err := Run(g, 2, spec, cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	if first != 13 || resumed.Epochs != whole.Epochs || resumed.BestEpoch != whole.BestEpoch ||
		resumed.Val != whole.Val || resumed.Test != whole.Test {
		t.Errorf("resumed at epoch %d (want 13): epochs %d best %d val %v test %v; uninterrupted %d %d %v %v",
			first, resumed.Epochs, resumed.BestEpoch, resumed.Val, resumed.Test, whole.Epochs, whole.BestEpoch, whole.Val, whole.Test)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the state file outlived the resumed split: %v", err)
	}
	closed := make(chan struct{})
	close(closed)
	plain := DefaultOptions()
	plain.Epochs, plain.Patience, plain.Threads, plain.Stop = 30, 0, 1, closed
	if _, err := Run(g, 2, spec, cfg, plain); !errors.Is(err, ErrStopped) {
		t.Errorf("without a Checkpoint: error %v, want ErrStopped", err)
	}
	plain.Epochs = 1
	if r, err := Run(g, 2, spec, cfg, plain); err != nil || r.Epochs != 1 {
		t.Errorf("a stop at the last epoch: %v, %v; want the split's result", r, err)
	}
}
