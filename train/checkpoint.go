package train

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"os"
	"time"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/internal/atomicfile"
	"github.com/pcgcn/pcgcn/optim"
)

// Checkpoint says where Run keeps the state of a split in progress, so that
// a run killed in the middle of a long split (a study's cell of 1000 epochs
// at hidden 512 takes most of an hour) resumes at its last saved epoch and
// ends with the numbers of an uninterrupted run, bit for bit: the
// parameters and their best-validation copy, Adam's moments and step, the
// dropout generator's position, and the early-stopping bookkeeping.
// Full-batch training only (Options.Batch nil): the batcher's state is not
// kept.
type Checkpoint struct {
	// Path returns the state file of split k.
	Path func(k int) string
	// Key names what the state belongs to (the caller's cell: model,
	// configuration, data, seed, budget, numerics); a file saved under
	// another key, or unreadable, is ignored and the split starts afresh.
	Key string
	// Every is the least wall time between two saves (0: after every
	// epoch). The file is removed when the split ends.
	Every time.Duration
	// CPU, when set, returns a running count of the caller's CPU seconds
	// (the process's, when one split trains at a time). Each save keeps what
	// the split has spent by then over every run that carried it, so that a
	// resumed split's CPU time is the work its result holds, not only the
	// last run's part (the epochs a killed run trained after its last save
	// are lost and not counted).
	CPU func() float64
	// Resumed, when set, is called when split k continues from a saved
	// state, with the epoch the state was saved after and the CPU seconds
	// the split had spent by then (see CPU); cpuSeconds is negative when
	// unknown: the state was saved by a run without CPU.
	Resumed func(k, epoch int, cpuSeconds float64)
	// Carry, when set, starts a split without a saved state of its own
	// where a shorter run of it ended, and keeps the state at the end of
	// this one for a longer run (see Carry).
	Carry *Carry
}

// runState is what a Checkpoint's file holds (gob).
type runState struct {
	Key                      string
	Split, Epoch             int
	BestEpoch, Since         int
	Val, Test, TestAccuracy  float64
	BestLoss                 float64
	TrainNanos, ElapsedNanos int64
	CPUSeconds               float64
	CPUKnown                 bool // CPUSeconds was counted (Checkpoint.CPU set in every run so far)
	Params, Best             [][]float32
	Adam                     optim.AdamState
	RNG                      []byte
	// End marks a state kept at the end of a run (Carry.Keep), and Epochs
	// and Patience are that run's budget.
	End              bool
	Epochs, Patience int
	// ContinuedEpochs, ContinuedNanos and ContinuedCPU are the part of
	// Epoch, ElapsedNanos and CPUSeconds that a shorter run trained, whose
	// end state the split continued (Carry; ContinuedCPU −1: not counted).
	ContinuedEpochs int
	ContinuedNanos  int64
	ContinuedCPU    float64
}

// checkpointer saves and loads one split's state for Run.
type checkpointer struct {
	c    *Checkpoint
	path string
	last time.Time
}

func newCheckpointer(c *Checkpoint, k int) *checkpointer {
	return &checkpointer{c: c, path: c.Path(k), last: time.Now()}
}

// load returns the saved state of the split, or nil when there is none
// that belongs to c.Key and this split.
func (ck *checkpointer) load(k int) *runState {
	b, err := os.ReadFile(ck.path)
	if err != nil {
		return nil
	}
	var st runState
	if gob.NewDecoder(bytes.NewReader(b)).Decode(&st) != nil || st.Key != ck.c.Key || st.Split != k || st.Epoch < 1 {
		return nil
	}
	return &st
}

// due reports whether Every has passed since the last save.
func (ck *checkpointer) due() bool { return time.Since(ck.last) >= ck.c.Every }

// save writes st atomically.
func (ck *checkpointer) save(st *runState) error {
	if err := saveState(ck.path, ck.c.Key, st); err != nil {
		return err
	}
	ck.last = time.Now()
	return nil
}

// saveState writes st under key to path atomically (gob).
func saveState(path, key string, st *runState) error {
	st.Key = key
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(st); err != nil {
		return err
	}
	if err := atomicfile.Write(path, buf.Bytes()); err != nil {
		return fmt.Errorf("state of split %d: %w", st.Split, err)
	}
	return nil
}

// cpuSpent returns what the split has spent by now: carried from earlier
// runs plus this run's part since start (a reading of c.CPU), and whether
// it is known.
func (ck *checkpointer) cpuSpent(carried, start float64, known bool) (float64, bool) {
	if ck.c.CPU == nil || !known {
		return 0, false
	}
	return carried + ck.c.CPU() - start, true
}

// remove deletes the file once the split is done (a file left behind is
// ignored by a run of another key and replaced by one of this key).
func (ck *checkpointer) remove() { os.Remove(ck.path) }

// state returns the trainer's part of a checkpoint: the parameters, their
// best-validation copy, Adam's state and the dropout generator's.
func (t *Trainer) state(params []*autograd.Var, best paramSnapshot) *runState {
	rs, err := t.tape.RNG.MarshalBinary()
	if err != nil {
		panic(err) // PCG's state always marshals
	}
	return &runState{Params: snapshot(params), Best: best, Adam: t.opt.State(), RNG: rs}
}

// restore sets the trainer to st (parameters, best copy, Adam, generator);
// an error, when st does not fit this model, leaves the trainer as it was
// built.
func (t *Trainer) restore(st *runState, params []*autograd.Var, best paramSnapshot) error {
	if len(st.Params) != len(params) || len(st.Best) != len(params) {
		return fmt.Errorf("checkpoint of %d parameters for %d", len(st.Params), len(params))
	}
	for i, p := range params {
		if len(st.Params[i]) != len(p.Value.Data) || len(st.Best[i]) != len(p.Value.Data) {
			return fmt.Errorf("checkpoint's parameter %d has %d values for %d", i, len(st.Params[i]), len(p.Value.Data))
		}
	}
	before := t.opt.State()
	if err := t.opt.SetState(st.Adam); err != nil {
		return err
	}
	if err := t.tape.RNG.UnmarshalBinary(st.RNG); err != nil {
		t.opt.SetState(before)
		return err
	}
	paramSnapshot(st.Params).restore(params)
	for i := range best {
		copy(best[i], st.Best[i])
	}
	return nil
}
