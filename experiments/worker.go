package experiments

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/tensor"
)

// DefaultLease is how long a worker's claim on a cell lives without being
// renewed (the heartbeat renews it four times per lease).
const DefaultLease = 2 * time.Minute

// WorkOptions configure Runner.Work.
type WorkOptions struct {
	// Poll is how often a worker that finds every cell left claimed by live
	// workers looks again (0: a quarter of the lease), so that it takes up
	// the cell of a worker that died once its claim expires.
	Poll time.Duration
	// Shard, when its Count is positive, restricts this worker to its
	// static share of the plan (see Shards) and makes it claim nothing
	// outside it.
	Shard Shard
}

// lease is the claims' lease (Runner.Lease, or DefaultLease).
func (rn *Runner) lease() time.Duration {
	if rn.Lease > 0 {
		return rn.Lease
	}
	return DefaultLease
}

// Work trains the cells of a plan as one of many workers, on one machine or
// many, sharing rn.Dir (the only meeting point). Each of its max(1, Jobs)
// goroutines claims the next cell that is neither saved nor claimed, longest
// first, trains it, saves it atomically and releases it, until none is left;
// while the only cells left are claimed by others it waits, and takes up a
// cell whose claim expires (its worker died), resuming from its per-split
// file. With opt.Shard it takes only its static share. It renders nothing.
//
// Before claiming anything it checks what would make it lose or spoil work:
// a directory it cannot write, a dataset it cannot load, an invalid
// configuration, and saved cells of this plan computed under another key
// (another seed, budget or data: a second plan pointed at the same
// directory), which it would otherwise overwrite.
func (rn *Runner) Work(ctx context.Context, cells []Cell, opt WorkOptions) error {
	if opt.Poll <= 0 {
		opt.Poll = rn.lease() / 4
	}
	pl := rn.pending(cells)
	if err := rn.workChecks(pl); err != nil {
		return err
	}
	costs := make([]float64, len(pl.cells))
	for i, c := range pl.cells {
		if len(pl.work[i].Splits) > 0 {
			c = pl.work[i] // a cell left: only what its saved result lacks
		}
		costs[i] = float64(len(c.Splits)) * pl.cost(c)
	}
	mine := make([]bool, len(pl.cells))
	for i := range mine {
		mine[i] = true
	}
	if opt.Shard.Count > 0 {
		for i, s := range Shards(rn.staticCosts(pl.cells), opt.Shard.Count) {
			mine[i] = s == opt.Shard.Index
		}
	}
	var order []int // this worker's cells left, longest first
	for _, i := range pl.todo {
		if mine[i] {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return costs[order[a]] > costs[order[b]] })
	if rn.Progress != nil {
		fmt.Fprintf(rn.Progress, "worker: %d of the plan's %d cells left to this worker (%d done, shard %s)\n",
			len(order), len(pl.cells), len(pl.cells)-len(pl.todo), shardName(opt.Shard))
		if n := staleKept(pl); n > 0 {
			fmt.Fprintf(rn.Progress, "worker: %d saved cells were computed by other numerics than this build's %s; they are kept (--refresh trains them again)\n",
				n, tensor.Numerics())
		}
	}
	w := &workState{rn: rn, pl: pl, order: order, costs: costs, opt: opt, held: map[*claim]Cell{},
		done: make([]bool, len(pl.cells))}
	total := 0
	for _, i := range order {
		total += len(pl.work[i].Splits)
	}
	w.meter = newMeter(rn.Progress, 0, len(order), total)
	for _, i := range order {
		w.meter.totalCost += costs[i]
	}
	if rn.reg == nil {
		rn.reg = models.NewRegistry() // before the goroutines share it
	}
	stop := make(chan struct{})
	interrupted := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			w.releaseAll()
			close(interrupted)
		case <-stop:
		}
	}()
	errs := make(chan error, max(1, rn.Jobs))
	var wg sync.WaitGroup
	for j := range max(1, rn.Jobs) {
		wg.Go(func() { errs <- w.loop(ctx, workerName(j)) })
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	select {
	case <-finished:
		close(stop)
	case <-interrupted:
		return ErrInterrupted
	}
	close(errs)
	var all []error
	for err := range errs {
		all = append(all, err)
	}
	if err := errors.Join(all...); err != nil {
		return err
	}
	w.meter.finish()
	return nil
}

// staleKept counts the saved cells of other numerics that the plan keeps
// as done (without Refresh).
func staleKept(pl plan) int {
	n := 0
	for i, r := range pl.saved {
		if r != nil && pl.stale[i] && !slices.Contains(pl.todo, i) {
			n++
		}
	}
	return n
}

// workState is what the goroutines of one Work call share.
type workState struct {
	rn    *Runner
	pl    plan
	order []int
	costs []float64
	opt   WorkOptions
	meter *meter

	mu   sync.Mutex
	held map[*claim]Cell // claims held now, released on interruption
	done []bool          // cells known saved
	err  error           // the first error: the other goroutines stop claiming
}

// loop claims, trains and saves cells until none is left to this worker.
func (w *workState) loop(ctx context.Context, name string) error {
	host, _ := os.Hostname()
	opt := w.rn.options()
	owner := claimOwner{Worker: name, Host: host, PID: os.Getpid(),
		Key: fmt.Sprintf("seed %d, epochs %d, patience %d, numerics %s", opt.Seed, opt.Epochs, opt.Patience, tensor.Numerics())}
	for ctx.Err() == nil {
		i, cl, waiting, err := w.next(owner)
		if err != nil {
			return w.fail(err)
		}
		if cl == nil {
			if !waiting {
				return nil
			}
			select { // every cell left is claimed by a live worker
			case <-ctx.Done():
			case <-time.After(w.opt.Poll):
			}
			continue
		}
		c := w.pl.cells[i]
		w.logf("%s claimed %s", name, cellName(c))
		_, err = w.rn.trainCell(ctx, c, w.meter, w.costs[i]/float64(max(1, len(w.pl.work[i].Splits))))
		if ctx.Err() != nil {
			return nil // interrupted: the claim was released for the next worker
		}
		if err != nil {
			w.release(cl)
			return w.fail(&CellError{Cell: c, Err: err})
		}
		if cl.Lost() {
			w.logf("%s: warning: its claim on %s expired while it trained (stalled longer than the lease %s); the saved result is the same whoever trained it",
				name, cellName(c), w.rn.lease())
		}
		w.release(cl)
		w.mu.Lock()
		w.done[i] = true
		w.mu.Unlock()
		w.meter.cellDone()
		w.logf("%s saved %s", name, cellName(c))
	}
	return nil
}

// next claims the first cell of the order that is neither saved nor held by
// a live claim. With none, waiting says whether cells are left that live
// claims of other workers hold.
func (w *workState) next(owner claimOwner) (int, *claim, bool, error) {
	waiting := false
	for _, i := range w.order {
		w.mu.Lock()
		done, failed := w.done[i], w.err != nil
		w.mu.Unlock()
		if failed {
			return 0, nil, false, nil
		}
		if done {
			continue
		}
		c := w.pl.cells[i]
		if w.saved(c) {
			w.mu.Lock()
			w.done[i] = true
			w.mu.Unlock()
			continue
		}
		cl, err := w.rn.leases().claim(c, owner)
		if err != nil {
			return 0, nil, false, fmt.Errorf("claiming %s: %w", cellName(c), err)
		}
		if cl == nil {
			waiting = true
			continue
		}
		if w.saved(c) { // finished by another worker since we looked
			cl.release()
			w.mu.Lock()
			w.done[i] = true
			w.mu.Unlock()
			continue
		}
		w.mu.Lock()
		w.held[cl] = c
		w.mu.Unlock()
		return i, cl, false, nil
	}
	return 0, nil, waiting, nil
}

// saved reports whether c has a current saved result that this plan keeps
// (with Refresh, one of this build's numerics).
func (w *workState) saved(c Cell) bool {
	if _, err := os.Stat(w.rn.Path(c)); err != nil {
		return false
	}
	r := w.rn.LoadExact(c)
	return r != nil && (!w.rn.Refresh || !Stale(r))
}

func (w *workState) release(cl *claim) {
	w.mu.Lock()
	delete(w.held, cl)
	w.mu.Unlock()
	cl.release()
}

// releaseAll releases every claim held (on interruption).
func (w *workState) releaseAll() {
	w.mu.Lock()
	held := w.held
	w.held = map[*claim]Cell{}
	w.mu.Unlock()
	for cl, c := range held {
		cl.release()
		w.logf("%s released %s (interrupted)", cl.owner.Worker, cellName(c))
	}
}

func (w *workState) fail(err error) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = err
	}
	return err
}

func (w *workState) logf(format string, args ...any) {
	if w.rn.Progress == nil {
		return
	}
	w.meter.mu.Lock()
	defer w.meter.mu.Unlock()
	fmt.Fprintf(w.rn.Progress, time.Now().UTC().Format("2006-01-02T15:04:05.000Z")+" "+format+"\n", args...)
}

// cellName names a cell in progress lines and errors: study/key.
func cellName(c Cell) string { return c.Study + "/" + c.Key() }

// workChecks fails before any claim on what would lose or spoil work.
func (rn *Runner) workChecks(pl plan) error {
	if err := os.MkdirAll(rn.Dir, 0o755); err != nil {
		return fmt.Errorf("results directory %s: %w", rn.Dir, err)
	}
	probe, err := os.CreateTemp(rn.Dir, ".write-probe-*")
	if err != nil {
		return fmt.Errorf("results directory %s is not writable: %w", rn.Dir, err)
	}
	probe.Close()
	os.Remove(probe.Name())
	if err := rn.check(pl.cells, pl.todo); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, i := range pl.todo {
		name := pl.cells[i].Dataset
		if seen[name] {
			continue
		}
		seen[name] = true
		if _, err := rn.Graph(name); err != nil {
			return fmt.Errorf("a worker needs every dataset of its plan: %w", err)
		}
	}
	opt := rn.options()
	st := rn.store()
	conflicts, example := 0, ""
	for i, c := range pl.cells {
		if !pl.stale[i] || pl.saved[i] != nil {
			continue // no saved result, or a current one (stale numerics only)
		}
		r := st.Read(c)
		if r == nil || st.SameKey(c, r) {
			continue // saved with this key: to be added to or refreshed
		}
		conflicts++
		if example == "" {
			example = fmt.Sprintf("%s was computed with seed %d, epochs %d, patience %d on data %s", cellName(c),
				r.Seed, r.Epochs, r.Patience, shortPrint(r.Data))
		}
	}
	if conflicts > 0 {
		return fmt.Errorf("results directory %s holds %d cells of this plan saved under another key (%s; this worker: seed %d, epochs %d, patience %d): %w; give this one its own --results, or remove those cells to retrain them",
			rn.Dir, conflicts, example, opt.Seed, opt.Epochs, opt.Patience, ErrOtherPlan)
	}
	return nil
}

func shortPrint(fp string) string {
	if len(fp) > 7+12 {
		return fp[:7+12]
	}
	if fp == "" {
		return "(unrecorded)"
	}
	return fp
}
