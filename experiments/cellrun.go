package experiments

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/pcgcn/pcgcn/internal/sysmem"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/train"
)

// runCell trains c's splits not yet saved in its partial file; a cancelled
// ctx stops it before its next split (the finished ones are in the partial
// file), and the splits in training at the end of their epoch, with their
// state saved in their state files.
func (rn *Runner) runCell(ctx context.Context, c Cell, p *meter, cost float64) (*Result, error) {
	st := rn.store()
	g, err := st.Graphs.Graph(c.Dataset)
	if err != nil {
		return nil, err
	}
	spec, cfg, err := rn.resolve(c)
	if err != nil {
		return nil, err
	}
	opt := rn.options()
	opt.Heartbeat = func(k, epoch, epochs int, bestVal float64) { p.heartbeat(c, k, epoch, epochs, bestVal) }
	// a cancelled ctx also ends the splits in training at the end of their
	// epoch, their state saved (train.Options.Stop), not only the next one
	opt.Stop = ctx.Done()
	if rn.Prepare != nil {
		if g, err = rn.Prepare(c, g, &opt); err != nil {
			return nil, err
		}
	}
	if opt.Metric, err = st.Metric(c.Dataset, g); err != nil {
		return nil, err
	}
	fp, err := st.Graphs.Fingerprint(c.Dataset)
	if err != nil {
		return nil, err
	}
	res := &Result{Cell: c, Metric: opt.Metric, Config: cfg, Numerics: tensor.Numerics(),
		Data: fp, Seed: opt.Seed, Epochs: opt.Epochs, Patience: opt.Patience}
	cpu, counted := rn.cpuClock()
	opt.Checkpoint = st.splitCheckpoint(c, res)
	// a split resumed from a state saved by an earlier run adds the CPU
	// seconds that run spent on it (carried[k]; negative: unknown)
	var mu sync.Mutex
	carried := map[int]float64{}
	if counted {
		opt.Checkpoint.CPU = processCPU
	}
	opt.Checkpoint.Resumed = func(k, epoch int, cpuSeconds float64) {
		mu.Lock()
		carried[k] = cpuSeconds
		mu.Unlock()
		p.resumedSplit(c, k, epoch)
	}
	if rn.CarryDir != "" {
		opt.Checkpoint.Carry = st.splitCarry(c, res, rn.CarryDir, rn.CarryKeep)
		opt.Checkpoint.Carry.Continued = func(k, epoch int, cpuSeconds float64) {
			mu.Lock()
			carried[k] = cpuSeconds
			mu.Unlock()
			p.continuedSplit(c, k, epoch)
		}
	}
	if part := rn.resumable(c); part != nil {
		res.PerSplit = part.PerSplit
		res.Numerics = part.Numerics
		p.resumed(c, len(part.PerSplit), cost)
	}
	todo := c.Splits[len(res.PerSplit):]
	for _, k := range todo {
		if k >= len(g.Splits) {
			return nil, fmt.Errorf("split %d requested, %s has %d", k, c.Dataset, len(g.Splits))
		}
	}
	// the splits side by side on a small graph (train.RunEach: each split's
	// numbers are those it gets alone), saved and reported in order
	err = train.RunEach(ctx, g, todo, spec, cfg, opt, train.SplitHooks{Done: func(i int, r *train.Result) error {
		sr := SplitResult{SplitScores: r.Scores(), CPUSeconds: cpu(), ContinuedCPUSeconds: max(r.ContinuedCPUSeconds, 0)}
		mu.Lock()
		if before, ok := carried[todo[i]]; ok {
			sr.CPUSeconds += before
			if before < 0 { // part of the split's CPU was not counted
				sr.CPUSeconds = 0
			}
		}
		mu.Unlock()
		if rn.Extras != nil {
			sr.Extra = rn.Extras(c, r)
		}
		if rn.Outputs != nil {
			if err := rn.Outputs(c, r, &sr); err != nil {
				return err
			}
		}
		res.PerSplit = append(res.PerSplit, sr)
		if len(res.PerSplit) < len(c.Splits) {
			if err := st.savePartial(res); err != nil {
				return err
			}
		}
		p.splitDone(c, todo[i], cost)
		return nil
	}})
	if errors.Is(err, train.ErrStopped) && ctx.Err() != nil {
		return nil, ctx.Err() // as a cancellation before a split: the state is saved
	}
	if err != nil {
		return nil, err
	}
	summarize(res)
	return res, nil
}

// cpuClock returns a function giving the process's CPU seconds since its
// previous call (the first: since cpuClock) and true, or one giving 0 and
// false when several cells may train at once (Jobs > 1: the process's CPU
// is theirs together) or the system has no getrusage.
func (rn *Runner) cpuClock() (func() float64, bool) {
	last, err := sysmem.CPUSeconds()
	if rn.Jobs > 1 || err != nil {
		return func() float64 { return 0 }, false
	}
	return func() float64 {
		now, err := sysmem.CPUSeconds()
		if err != nil {
			return 0
		}
		d := now - last
		last = now
		return d
	}, true
}

// processCPU is the process's CPU seconds so far (0 where the system has no
// getrusage: cpuClock then counts nothing).
func processCPU() float64 {
	s, _ := sysmem.CPUSeconds()
	return s
}

// options returns the training options of every cell (threads, seed, epochs,
// patience; the metric is the dataset's).
func (rn *Runner) options() train.Options {
	opt := train.DefaultOptions()
	opt.Threads = rn.Threads
	if rn.Seed != 0 {
		opt.Seed = rn.Seed
	}
	if rn.Epochs > 0 {
		opt.Epochs = rn.Epochs
	}
	if rn.Patience > 0 {
		opt.Patience = rn.Patience
	}
	return opt
}

// resolve returns c's model spec and its configuration, validated: the
// dataset's preset with the cell's overrides (models.Resolve, the one
// resolution path the command line takes too).
func (rn *Runner) resolve(c Cell) (models.Spec, models.Config, error) {
	if rn.reg == nil {
		rn.reg = models.NewRegistry()
	}
	spec, err := rn.reg.Get(c.Model)
	if err != nil {
		return spec, nil, err
	}
	cfg, err := models.Resolve(spec, c.Dataset, models.Sets(c.Sets)...)
	if err != nil {
		return spec, nil, err
	}
	return spec, cfg, nil
}

// summarize sets res's means and standard deviations from its splits.
func summarize(res *Result) {
	splits := make([]train.SplitScores, len(res.PerSplit))
	for i, sr := range res.PerSplit {
		splits[i] = sr.SplitScores
	}
	res.Scores = train.Summarize(splits)
}

// Interrupted returns how many of c's splits an interrupted run finished
// and a run of c keeps (see resumable): they sit in the cell's partial file
// until the cell completes, and no report reads them.
func (rn *Runner) Interrupted(c Cell) int {
	if part := rn.resumable(c); part != nil {
		return len(part.PerSplit)
	}
	return 0
}

// resumable returns the splits of c finished by an interrupted run that a
// run of c keeps (nil when none): those computed by this build's numerics,
// or by unrecorded ones unless rn refreshes (the cell then records none
// either). Plan counts them as trained.
func (rn *Runner) resumable(c Cell) *Result {
	part := rn.store().loadPartial(c)
	if part == nil || part.Numerics != tensor.Numerics() && (part.Numerics != "" || rn.Refresh) {
		return nil
	}
	return part
}
