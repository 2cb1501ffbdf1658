package train

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// TestRunEachMatchesRunAlone holds issue 37 item 2's contract: splits
// trained side by side (three lanes of one thread) give each model the
// numbers it gets trained alone on two threads, bit for bit, including
// splits that stop early at different epochs; and the hooks and progress
// come in the splits' order.
func TestRunEachMatchesRunAlone(t *testing.T) {
	g, err := datasets.Load("texas", datasets.Options{DataDir: datatest.Mirror(t), Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	reg := models.NewRegistry()
	ks := []int{2, 0, 1}
	for _, name := range []string{"pcgcn", "gcn"} {
		t.Run(name, func(t *testing.T) {
			spec, _ := reg.Get(name)
			cfg := spec.Preset("texas")
			opt := DefaultOptions()
			opt.Epochs, opt.Patience = 60, 8
			solo := make([]*Result, len(ks))
			for i, k := range ks {
				o := opt
				o.Threads = 2
				if solo[i], err = Run(g, k, spec, cfg, o); err != nil {
					t.Fatal(err)
				}
			}
			if solo[0].Epochs == solo[1].Epochs && solo[1].Epochs == solo[2].Epochs {
				t.Logf("every split stopped at epoch %d: the test does not cover different stopping epochs", solo[0].Epochs)
			}
			o := opt
			o.Threads = 3
			if got := SplitLanes(g, o, len(ks)); got != 3 {
				t.Fatalf("SplitLanes = %d, want 3", got)
			}
			var order []int
			lastSplit, lastEpoch := -1, 0
			o.Progress = func(p Progress) {
				if p.Split != lastSplit {
					if p.Epoch != 1 {
						t.Errorf("split %d's progress starts at epoch %d", p.Split, p.Epoch)
					}
					lastSplit = p.Split
				} else if p.Epoch != lastEpoch+1 {
					t.Errorf("split %d: epoch %d after %d", p.Split, p.Epoch, lastEpoch)
				}
				lastEpoch = p.Epoch
			}
			started := 0
			err := RunEach(context.Background(), g, ks, spec, cfg, o, SplitHooks{
				Start: func(i, k int) {
					if i != started || k != ks[i] {
						t.Errorf("Start(%d, %d), want (%d, %d)", i, k, started, ks[started])
					}
					started++
				},
				Done: func(i int, r *Result) error {
					order = append(order, i)
					if lastSplit != ks[i] || lastEpoch != r.Epochs {
						t.Errorf("split %d done after progress of split %d epoch %d", ks[i], lastSplit, lastEpoch)
					}
					want := solo[i]
					if r.Split != want.Split || r.Epochs != want.Epochs || r.BestEpoch != want.BestEpoch ||
						r.Val != want.Val || r.Test != want.Test || r.TestAccuracy != want.TestAccuracy {
						t.Errorf("split %d side by side: epochs %d best %d val %v test %v; alone: %d %d %v %v",
							ks[i], r.Epochs, r.BestEpoch, r.Val, r.Test, want.Epochs, want.BestEpoch, want.Val, want.Test)
					}
					ps, wps := r.Model.Params(), want.Model.Params()
					for j := range ps {
						for e, v := range ps[j].Value.Data {
							if math.Float32bits(v) != math.Float32bits(wps[j].Value.Data[e]) {
								t.Fatalf("split %d parameter %d element %d: %v side by side, %v alone", ks[i], j, e, v, wps[j].Value.Data[e])
							}
						}
					}
					return nil
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(order) != 3 || order[0] != 0 || order[1] != 1 || order[2] != 2 {
				t.Errorf("Done order %v", order)
			}
			rs, err := RunSplits(g, ks, spec, cfg, o)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range rs {
				if r.Split != ks[i] || r.Val != solo[i].Val || r.BestEpoch != solo[i].BestEpoch {
					t.Errorf("RunSplits[%d]: split %d val %v best %d, want split %d val %v best %d", i, r.Split, r.Val, r.BestEpoch, ks[i], solo[i].Val, solo[i].BestEpoch)
				}
			}
		})
	}
}

// TestRunEachStopsOnError: an error of Done stops RunEach and is returned;
// a cancelled context starts nothing.
func TestRunEachStopsOnError(t *testing.T) {
	g, spec, cfg := texasGCN(t)
	opt := DefaultOptions()
	opt.Epochs, opt.Threads = 3, 2
	boom := errors.New("boom")
	done := 0
	err := RunEach(context.Background(), g, []int{0, 1, 2, 3, 4}, spec, cfg, opt, SplitHooks{Done: func(int, *Result) error {
		done++
		return boom
	}})
	if !errors.Is(err, boom) || done != 1 {
		t.Errorf("err %v after %d Done, want boom after 1", err, done)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = RunEach(ctx, g, []int{0, 1}, spec, cfg, opt, SplitHooks{Done: func(int, *Result) error {
		t.Error("a split trained under a cancelled context")
		return nil
	}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
}
