package train

import (
	"bytes"
	"encoding/gob"
	"os"
)

// Carry lets a run of a split start where a shorter run of the same split
// ended, instead of from its first epoch: a search's rung r+1 trains its
// promoted trials on rung r's splits for more epochs, and nothing of
// training depends on the budget (the initialisation and the dropout
// stream derive from the seed and the split, Adam's step from the epoch),
// only when training stops. So the first epochs of the longer run are the
// shorter run's, bit for bit, and the longer run continues from the state
// the shorter one kept at its end (its parameters and their best copy,
// Adam's state, the dropout generator's position and the best-validation
// bookkeeping) with the numbers it would have had from scratch.
//
// A state is continued only where that holds: saved at the end of a run of
// the same Key (everything Checkpoint.Key names but the budget), of at most
// this run's epochs, and such that this run's patience would not have
// stopped it earlier (see continues). A Checkpoint's own state, saved by an
// interrupted run of this budget, goes first.
type Carry struct {
	// Path returns the end state file of split k: the state a run keeps
	// there at its end (Keep) and a longer run continues.
	Path func(k int) string
	// Key names what the state belongs to: the model, configuration, data,
	// seed and numerics, not the budget.
	Key string
	// Keep saves the split's state in Path(k) when the run ends (at its
	// last epoch or where early stopping ended it), replacing the state it
	// continued, if any; a state that cannot be written is not kept, and
	// the split's result stands.
	Keep bool
	// Continued, when set, is called when split k starts from a shorter
	// run's end state, with that run's last epoch and the CPU seconds the
	// split had spent by then (as Checkpoint.Resumed: negative when
	// unknown).
	Continued func(k, epoch int, cpuSeconds float64)
}

// continues reports whether a run of the given budget may continue from
// the end state st: st ended at epoch e ≤ epochs, and at no epoch before e
// would this run's patience have stopped it. At such an epoch j the
// shorter run's count of epochs without improvement was below its own
// patience (it did not stop there) and at most j < e; so it was below
// min(st.Patience, e) (a patience of 0 stops nothing), which must not
// exceed this run's patience (0: none).
func continues(st *runState, epochs, patience int) bool {
	if !st.End || st.Epoch > epochs {
		return false
	}
	if patience <= 0 {
		return true
	}
	bound := st.Epoch
	if st.Patience > 0 {
		bound = min(bound, st.Patience)
	}
	return bound <= patience
}

// loadCarried returns the end state of split k kept under c.Key that a run
// of the given budget may continue (see continues), with the continued
// part recorded in its Continued fields, or nil.
func loadCarried(c *Carry, k, epochs, patience int) *runState {
	b, err := os.ReadFile(c.Path(k))
	if err != nil {
		return nil
	}
	var st runState
	if gob.NewDecoder(bytes.NewReader(b)).Decode(&st) != nil || st.Key != c.Key || st.Split != k || st.Epoch < 1 ||
		!continues(&st, epochs, patience) {
		return nil
	}
	// everything the state holds is now the continued part, including
	// what it had itself continued
	st.ContinuedEpochs, st.ContinuedNanos = st.Epoch, st.ElapsedNanos
	st.ContinuedCPU = -1
	if st.CPUKnown {
		st.ContinuedCPU = st.CPUSeconds
	}
	return &st
}
