package experiments

import (
	"context"
	"io"
	"sync"
	"time"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/train"
)

// Runner runs cells, skipping those already saved under Dir.
type Runner struct {
	// Dir is the results directory; cell results go to
	// Dir/<study>/<key>.json, or Dir/seed<N>/<study>/<key>.json for a seed
	// other than 42 (see KeyDir and Path).
	Dir string
	// Data resolves datasets by name (DataDir, cache, download).
	Data datasets.Options
	// Threads, Seed, Epochs and Patience configure training (0 epochs or
	// patience: the protocol defaults).
	Threads int
	// Jobs is how many cells train at once, each with Threads goroutines
	// (0 or 1: one at a time). Cells are independent and seeded, so every
	// result is the same whatever Jobs is; on a small machine Jobs = cores
	// with Threads = 1 trains faster overall than one cell on every core,
	// because a single training run does not scale perfectly. Within a cell
	// on a small graph the splits train side by side too, one per thread
	// (train.RunEach), so one job already keeps Threads cores busy there.
	Jobs             int
	Seed             uint64
	Epochs, Patience int
	// Select, when set, lists the candidates of the cells chosen among
	// several configurations on validation (see Selector): Run trains every
	// candidate and Load reports the best. nil: every cell is its own only
	// candidate.
	Select Selector
	// Refresh counts saved cells whose numerics differ from this build's
	// (Result.Numerics against tensor.Numerics, an empty one included) as
	// not done, so that they are trained again and saved with this build's
	// numerics; without it such cells are kept (see Stale).
	Refresh bool
	// Lease is how long a worker's claim on a cell lives without being
	// renewed (see Work; 0: DefaultLease); Plan counts the cells held by
	// claims renewed within it.
	Lease time.Duration
	// Progress receives progress lines (nil: quiet).
	Progress io.Writer
	// Metrics chooses the metric of a dataset by name (a registry name or
	// the path of a user graph); a dataset not in it is scored on
	// datasets.DefaultMetric. A saved cell of another metric is not reused.
	Metrics map[string]datasets.Metric
	// Extras, when set, adds study-specific measurements to each split.
	Extras func(c Cell, r *train.Result) map[string]float64
	// Prepare, when set, adapts a cell's graph and training options to
	// what its study asks (Cell.Opts) before its splits train: it may
	// return another graph (a shallow copy with other splits) and change
	// opt (a class's training labels removed, mini-batches). The cell's key
	// keeps the dataset's fingerprint. nil: every cell trains on the
	// dataset's graph with the runner's options.
	Prepare func(c Cell, g *graph.Graph, opt *train.Options) (*graph.Graph, error)
	// Outputs, when set, keeps in sr what a cell's study asks of each
	// trained split beyond its scores and Extras (per-node outputs, an
	// embedding's points and its measurements).
	Outputs func(c Cell, r *train.Result, sr *SplitResult) error

	// CarryDir, when set, is where each split of a cell keeps its state at
	// its end (with CarryKeep) and whence a run of the same cell with a
	// larger budget continues it instead of training its first epochs again,
	// with the same numbers (train.Carry): a search's rungs, whose promoted
	// trials train the previous rung's splits again for more epochs (see
	// Search.RungRunner). "": every split starts from its first epoch.
	CarryDir  string
	CarryKeep bool

	// Stop, when set, interrupts Run and RunContext once closed, as a
	// cancelled context does: no further cell starts, and the splits in
	// training end at the end of their epoch with their state saved, so
	// that the same run resumes them where they were (a command closes it
	// at the first Ctrl-C). nil: only the context stops a run.
	Stop <-chan struct{}

	// ReferenceRates are models' rates (seconds per split per unit of an
	// epoch's work) for estimates in a results directory with no saved cell
	// yet (see Estimator.Reference); nil: none.
	ReferenceRates map[string]float64
	// SearchReferenceRates are the same for a search's trials, at the
	// protocol's budget (see MeasuredRates), which Search.Plan prices its
	// rungs and final cell from instead of ReferenceRates when set: a
	// search's trials run 64 to 512 wide and up to 10 deep, where a model's
	// preset, whose cells ReferenceRates come from, is often 64 wide and 2
	// deep, and per unit of work a narrow model pays more for what does not
	// grow with its width (a fresh directory's plan of an MLP search on
	// Chameleon came out 14 times its time from the presets' rates). nil:
	// ReferenceRates.
	SearchReferenceRates map[string]float64
	// Graphs is the run's one graph cache, which the studies share (nil:
	// one of the runner's own, opening datasets with Data).
	Graphs *GraphCache

	// rateStudy, when set, restricts the rates an estimate reads from other
	// saved cells to those of this study (a search prices its rungs and its
	// final cell by the searches' cells, not by the presets of the main
	// table saved beside them).
	rateStudy string

	mu  sync.Mutex // guards Graphs
	reg *models.Registry
}

// Run runs every cell (every candidate of a cell with candidates, see
// Select) not yet saved, saving each as it finishes, and returns the results
// in the order of cells (for a cell with candidates, the selected one; see
// Load). A cell whose splits a saved result holds, among others, is
// answered by it; one whose saved result lacks some of its splits trains
// only those and adds them to it: a saved result only grows (see need).
func (rn *Runner) Run(cells []Cell) ([]*Result, error) {
	return rn.RunContext(context.Background(), cells)
}

// RunContext is Run stopped by ctx (or Stop): once ctx is cancelled no
// further cell starts and the cells under way stop at the end of their
// splits' epochs (their finished splits are kept in their partial files and
// the splits in training in their state files, so a later run resumes
// them); it then returns an error wrapping ctx's.
func (rn *Runner) RunContext(ctx context.Context, cells []Cell) ([]*Result, error) {
	if rn.Stop != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		stop := rn.Stop
		go func() {
			select {
			case <-stop:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	asked := cells
	pl := rn.pending(cells)
	cells, out, todo, cost := pl.cells, pl.saved, pl.todo, pl.cost
	if err := rn.check(cells, todo); err != nil {
		return nil, err
	}
	if err := rn.checkWritable(cells, todo); err != nil {
		return nil, err
	}
	for _, i := range todo {
		out[i] = nil // a stale result being refreshed
	}
	total := 0
	for _, i := range todo {
		total += len(pl.work[i].Splits)
	}
	p := newMeter(rn.Progress, len(cells)-len(todo), len(cells), total)
	costs := make([]float64, len(cells))
	for _, i := range todo {
		costs[i] = cost(cells[i])
		p.totalCost += float64(len(pl.work[i].Splits)) * costs[i]
	}
	if rn.reg == nil {
		rn.reg = models.NewRegistry() // before the workers share it
	}
	if err := rn.runAll(ctx, cells, todo, costs, out, p); err != nil {
		return out, err
	}
	p.finish()
	if len(cells) == len(asked) {
		return out, nil
	}
	sel := make([]*Result, len(asked))
	for i, c := range asked {
		sel[i] = rn.Load(c)
	}
	return sel, nil
}

// runAll trains cells[i] for i in todo, Jobs of them at a time, handing
// them out in order, saving each as it finishes and storing it in out[i].
// After the first error no further cell starts; the cells under way finish
// (and are saved) and the first error is returned.
func (rn *Runner) runAll(ctx context.Context, cells []Cell, todo []int, costs []float64, out []*Result, p *meter) error {
	var (
		mu       sync.Mutex // guards next and firstErr
		next     int
		firstErr error
		wg       sync.WaitGroup
	)
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr != nil || next == len(todo) || ctx.Err() != nil {
			return 0, false
		}
		next++
		return todo[next-1], true
	}
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr == nil {
			firstErr = err
		}
	}
	for range max(1, min(rn.Jobs, len(todo))) {
		wg.Go(func() {
			for {
				i, ok := take()
				if !ok {
					return
				}
				c := cells[i]
				r, err := rn.trainCell(ctx, c, p, costs[i])
				if err != nil {
					fail(&CellError{Cell: c, Err: err})
					return
				}
				out[i] = r
				p.cellDone()
			}
		})
	}
	wg.Wait()
	if firstErr == nil && ctx.Err() != nil {
		firstErr = ctx.Err()
	}
	return firstErr
}

// check resolves and validates the configuration of every cell to be run
// (cells[i] for i in todo), so that a bad option or an out-of-range value in
// any of them fails before the first one is trained.
func (rn *Runner) check(cells []Cell, todo []int) error {
	for _, i := range todo {
		c := cells[i]
		if _, _, err := rn.resolve(c); err != nil {
			return &CellError{Cell: c, Err: err}
		}
	}
	return nil
}
