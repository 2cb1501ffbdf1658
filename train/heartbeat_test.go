package train

import (
	"testing"
)

// TestHeartbeatEveryEpochChangesNothing: Options.Heartbeat is called once
// an epoch, in order, with the best validation metric so far (the last call
// holds the result's), and a run with it gives the numbers of a run
// without.
func TestHeartbeatEveryEpochChangesNothing(t *testing.T) {
	g, spec, cfg := texasGCN(t)
	opt := DefaultOptions()
	opt.Epochs, opt.Patience, opt.Threads = 40, 10, 1
	plain, err := Run(g, 2, spec, cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	var epochs []int
	var last float64
	opt.Heartbeat = func(split, epoch, total int, bestVal float64) {
		if split != 2 || total != 40 {
			t.Errorf("heartbeat of split %d of %d epochs, want split 2 of 40", split, total)
		}
		if bestVal < last {
			t.Errorf("epoch %d: best validation %v fell below %v", epoch, bestVal, last)
		}
		epochs, last = append(epochs, epoch), bestVal
	}
	beat, err := Run(g, 2, spec, cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(epochs) != beat.Epochs || epochs[0] != 1 || epochs[len(epochs)-1] != beat.Epochs {
		t.Errorf("heartbeats at epochs %v, the run trained %d", epochs, beat.Epochs)
	}
	if last != beat.Val {
		t.Errorf("last heartbeat's best validation %v, the result's %v", last, beat.Val)
	}
	if beat.Val != plain.Val || beat.Test != plain.Test || beat.BestEpoch != plain.BestEpoch || beat.Epochs != plain.Epochs {
		t.Errorf("with a heartbeat val %v test %v best epoch %d of %d; without %v %v %d of %d",
			beat.Val, beat.Test, beat.BestEpoch, beat.Epochs, plain.Val, plain.Test, plain.BestEpoch, plain.Epochs)
	}
}
