package experiments

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/search"
	"github.com/pcgcn/pcgcn/train"
)

// SearchStudy is the study name of a search's cells: every trial of every
// rung and the chosen point's final cell are saved under
// <results>[/epochs<E>-patience<P>]/search/.
const SearchStudy = "search"

// ErrRungNotReady is the error (wrapped) of Search.RungCells asked for a rung
// whose previous rung is not complete: its trials are promoted from the
// validation scores of every cell of the previous rung, so they wait for it.
var ErrRungNotReady = errors.New("the previous rung is not complete")

// Search is one equal-budget hyperparameter search of a model on a dataset
// (issue 38): Schedule.Trials points of Space drawn by the seeded
// quasi-random sequence (search.Space.Sample), raced by successive halving
// (search.Schedule): rung r trains its trials on the first Rung.Splits of
// Splits for Rung.Epochs epochs, and the best 1/Eta of them on validation
// go on to rung r+1. Every trial of every rung is a cell of the results
// store (Study "search", Sets: Fixed and the point's values), saved as it
// finishes, so a killed search resumes; rung r's budget is kept apart by its
// directory (BudgetDir), like tune's. The point the last rung keeps is then
// trained on every split with the protocol's budget (Epochs, Patience): its
// final cell, the only one whose test score a caller should read.
//
// A search holds no state of its own: everything it knows it reads from the
// saved cells under the base runner's Dir, so a study can plan a rung, a
// worker train it and another process report it.
type Search struct {
	// Model and Dataset are registry names (a dataset may be a path).
	Model, Dataset string
	// Space is the space the points are drawn from (see
	// models.Spec.Space); Fixed are overrides every point gets (not
	// searched; a key may not be both).
	Space *search.Space
	Fixed map[string]string
	// Seed seeds the points (the training seed is the runner's).
	Seed uint64
	// WithPreset makes the model's preset for the dataset (no values but
	// Fixed) one of the Trials points, in place of the last one drawn, so
	// that a search never ends worse on validation than the untuned model
	// unless halving drops the preset on fewer splits and epochs: a space
	// whose random points train poorly (many dimensions, narrow good
	// regions) then still starts from the authors' setting.
	WithPreset bool
	// Schedule is the halving schedule; MaxSplits must not exceed
	// len(Splits).
	Schedule search.Schedule
	// Splits are the splits of the final cell; rung r trains the first
	// Rung.Splits of them.
	Splits []int
	// Epochs and Patience are the protocol's budget of the final cell (0:
	// train.DefaultOptions'); a rung of E epochs keeps the protocol's
	// patience, at most E (see RungPatience).
	Epochs, Patience int
	// FromScratch trains every rung's splits from their first epoch,
	// keeping no end states on disk (see RungRunner): the same numbers,
	// more CPU time, for a disk too small for a rung's parameters.
	FromScratch bool
}

// budget returns the final cell's epochs and patience.
func (s *Search) budget() (int, int) {
	def := train.DefaultOptions()
	e, p := s.Epochs, s.Patience
	if e <= 0 {
		e = def.Epochs
	}
	if p <= 0 {
		p = def.Patience
	}
	return e, min(p, e)
}

// RungPatience returns the patience of a rung of the given epochs: the
// protocol's, at most the rung's epochs. A short rung thus runs its whole
// budget (its best-validation epoch is kept), so that a slow starter is not
// stopped by a patience scaled down with the budget; the split-epochs a rung
// costs are close to its budget.
func (s *Search) RungPatience(epochs int) int {
	_, p := s.budget()
	return min(epochs, p)
}

// BudgetDir returns the directory of the cells trained with the given
// budget under the results directory root: root itself for the protocol's
// (train.DefaultOptions: 1000 epochs, patience 200), root/epochs<E>-patience<P>
// otherwise, the layout of pcgcn tune.
func BudgetDir(root string, epochs, patience int) string {
	def := train.DefaultOptions()
	if epochs == def.Epochs && patience == def.Patience {
		return root
	}
	return filepath.Join(root, fmt.Sprintf("epochs%d-patience%d", epochs, patience))
}

// Validate checks the search before anything is trained: the schedule, the
// splits, the fixed keys against the space, and that every point resolves
// and validates (models.Resolve), so that a bad range fails at once; the
// errors name the model.
func (s *Search) Validate() error {
	if s.Space == nil {
		return fmt.Errorf("search %s on %s: no space", s.Model, s.Dataset)
	}
	if err := s.Schedule.Validate(); err != nil {
		return err
	}
	if s.Schedule.MaxSplits > len(s.Splits) {
		return fmt.Errorf("search schedule: up to %d splits, but only %d splits are given", s.Schedule.MaxSplits, len(s.Splits))
	}
	for _, k := range s.Space.Names() {
		if _, ok := s.Fixed[k]; ok {
			return fmt.Errorf("search %s: %s is both searched and fixed; give it one way", s.Model, k)
		}
	}
	spec, err := models.NewRegistry().Get(s.Model)
	if err != nil {
		return err
	}
	points, err := s.Points()
	if err != nil {
		return err
	}
	for _, p := range points {
		if _, err := models.Resolve(spec, s.Dataset, models.Sets(s.sets(p))...); err != nil {
			return fmt.Errorf("search point %v: %w", p.Sets(), err)
		}
	}
	return nil
}

// Points returns the search's points: Schedule.Trials of them, the same for
// the same space and seed.
func (s *Search) Points() ([]search.Point, error) {
	if !s.WithPreset {
		return s.Space.Sample(s.Seed, s.Schedule.Trials)
	}
	points, err := s.Space.Sample(s.Seed, s.Schedule.Trials-1)
	if err != nil {
		return nil, err
	}
	return append(points, PresetPoint()), nil
}

// PresetPoint is the point of a search that is the model's preset: no
// values of its own (Search.WithPreset).
func PresetPoint() search.Point {
	return search.Point{ID: search.PointID(map[string]string{}), Values: map[string]string{}}
}

// sets returns a point's overrides: Fixed and its values.
func (s *Search) sets(p search.Point) map[string]string {
	out := maps.Clone(s.Fixed)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, p.Values)
	return out
}

// cell returns a point's cell over the given splits.
func (s *Search) cell(p search.Point, splits []int) Cell {
	sets := s.sets(p)
	if len(sets) == 0 {
		sets = nil
	}
	return Cell{Study: SearchStudy, Dataset: s.Dataset, Model: s.Model, Sets: sets, Splits: slices.Clone(splits)}
}

// RungRunner returns the runner of rung r: base's settings (not its
// selection hook) with the rung's budget, saving under BudgetDir(base.Dir,
// …). base.Dir is the results directory's root; base's own Epochs and
// Patience are not used.
//
// Its splits keep their end states in the search's carry directory
// (CarryDir), and continue those of the previous rung: a promoted trial
// trains rung r's splits on from where rung r ended them (the same
// numbers as from scratch, without training the first epochs again; by
// the saved searches of sessions 43-54, about a fifth of a search's CPU
// time).
func (s *Search) RungRunner(base *Runner, r search.Rung) *Runner {
	rn := base.WithBudget(r.Epochs, s.RungPatience(r.Epochs))
	if !s.FromScratch {
		rn.CarryDir, rn.CarryKeep = CarryDir(base), true
	}
	return rn
}

// FinalRunner returns the runner of the final cell: base's settings with
// the protocol's budget (Epochs, Patience), continuing the last rung's
// splits (see RungRunner) and keeping no end state.
func (s *Search) FinalRunner(base *Runner) *Runner {
	e, p := s.budget()
	rn := base.WithBudget(e, p)
	if !s.FromScratch {
		rn.CarryDir = CarryDir(base)
	}
	return rn
}

// CarryDir is the directory of the end states a search's splits keep for
// the next rung (Runner.CarryDir): carry/ in base's key directory
// (KeyDir), whatever the budget, since the next rung has another. Its
// files (*.state) are megabytes of parameters, left out of the repository
// by .gitignore and removed as the search goes on (pruneCarry).
func CarryDir(base *Runner) string { return filepath.Join(base.KeyDir(), "carry") }

// WithBudget returns a runner with rn's settings but Select, training with
// the given budget under BudgetDir(rn.Dir, epochs, patience) and sharing
// rn's graph cache: the runner of a search's rung, or of a study whose cells
// need another budget than the protocol's (the anchors study's 1000 epochs
// without early stopping).
func (rn *Runner) WithBudget(epochs, patience int) *Runner {
	return &Runner{Dir: BudgetDir(rn.Dir, epochs, patience), Data: rn.Data, Threads: rn.Threads, Jobs: rn.Jobs,
		Seed: rn.Seed, Epochs: epochs, Patience: patience, Refresh: rn.Refresh, Lease: rn.Lease,
		Progress: rn.Progress, Metrics: rn.Metrics, Extras: rn.Extras, Prepare: rn.Prepare, Outputs: rn.Outputs,
		ReferenceRates: rn.ReferenceRates, SearchReferenceRates: rn.SearchReferenceRates, Stop: rn.Stop, Graphs: rn.graphCache()}
}

// walk is what the saved cells say of a search: the candidates of every
// rung known so far (rung 0's: every point; rung r's: those promoted from
// rung r−1, which is complete), each with its saved result or nil.
type walk struct {
	rungs   []search.Rung
	cands   [][]search.Point
	results [][]*Result
	// promoted[r] are the IDs rung r promotes (complete rungs only).
	promoted [][]search.ID
}

// complete reports whether rung r is known and every one of its cells
// saved.
func (w *walk) complete(r int) bool {
	return r < len(w.results) && !slices.Contains(w.results[r], nil)
}

// walk reads the saved cells of the search rung by rung.
func (s *Search) walk(base *Runner) (*walk, error) {
	rungs, err := s.Schedule.Rungs()
	if err != nil {
		return nil, err
	}
	points, err := s.Points()
	if err != nil {
		return nil, err
	}
	w := &walk{rungs: rungs}
	cands := points
	for i, r := range rungs {
		rn := s.RungRunner(base, r)
		res := make([]*Result, len(cands))
		for j, p := range cands {
			res[j] = rn.LoadExact(s.cell(p, s.Splits[:r.Splits]))
		}
		w.cands = append(w.cands, cands)
		w.results = append(w.results, res)
		if !w.complete(i) {
			break
		}
		val := make(map[search.ID]float64, len(cands))
		byID := make(map[search.ID]search.Point, len(cands))
		for j, p := range cands {
			val[p.ID] = res[j].ValMean // validation only: test plays no part
			byID[p.ID] = p
		}
		keep := s.Schedule.Promote(i, val)
		w.promoted = append(w.promoted, keep)
		cands = make([]search.Point, len(keep))
		for j, id := range keep {
			cands[j] = byID[id]
		}
	}
	return w, nil
}

// RungCells returns the cells of rung r: every point for rung 0; for a later
// rung the points the complete rung r−1 promotes on validation, in their
// order of rank. A rung whose previous rung is not complete is not ready
// (ErrRungNotReady).
func (s *Search) RungCells(base *Runner, r int) ([]Cell, error) {
	w, err := s.walk(base)
	if err != nil {
		return nil, err
	}
	if r < 0 || r >= len(w.rungs) {
		return nil, fmt.Errorf("search: rung %d of a schedule with %d rungs", r, len(w.rungs))
	}
	if r >= len(w.cands) {
		return nil, fmt.Errorf("search %s on %s, rung %d: %w", s.Model, s.Dataset, r, ErrRungNotReady)
	}
	cells := make([]Cell, len(w.cands[r]))
	for j, p := range w.cands[r] {
		cells[j] = s.cell(p, s.Splits[:w.rungs[r].Splits])
	}
	return cells, nil
}

// Chosen returns the point the search chose and its final cell (every
// split, the protocol's budget), or ok false while a rung is incomplete.
func (s *Search) Chosen(base *Runner) (search.Point, Cell, bool, error) {
	w, err := s.walk(base)
	if err != nil {
		return search.Point{}, Cell{}, false, err
	}
	last := len(w.rungs) - 1
	if !w.complete(last) {
		return search.Point{}, Cell{}, false, nil
	}
	id := w.promoted[last][0]
	for _, p := range w.cands[last] {
		if p.ID == id {
			return p, s.cell(p, s.Splits), true, nil
		}
	}
	panic("search: the promoted point is not a candidate")
}

// Run trains what the search still needs, rung by rung (each rung's cells
// through the rung's runner: Jobs at once, saved as they finish; a cell
// saved by an earlier run is not trained again), then the chosen point's
// final cell, and returns the report. A cancelled ctx stops it (the cells
// and splits finished are saved); run again, it resumes.
func (s *Search) Run(ctx context.Context, base *Runner) (*SearchReport, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	rungs, _ := s.Schedule.Rungs()
	start := time.Now()
	doneAtStart := -1
	for i, r := range rungs {
		cells, err := s.RungCells(base, i)
		if err != nil {
			return nil, err
		}
		s.pruneCarry(base)
		doneAtStart = s.progress(base, fmt.Sprintf("rung %d of %d: %d trials × %d splits × %d epochs", i+1, len(rungs), len(cells), r.Splits, r.Epochs), start, doneAtStart)
		if _, err := s.RungRunner(base, r).RunContext(ctx, cells); err != nil {
			return nil, err
		}
	}
	_, final, _, err := s.Chosen(base)
	if err != nil {
		return nil, err
	}
	e, _ := s.budget()
	s.pruneCarry(base)
	s.progress(base, fmt.Sprintf("final: the chosen point on %d splits × %d epochs", len(s.Splits), e), start, doneAtStart)
	if _, err := s.FinalRunner(base).RunContext(ctx, []Cell{final}); err != nil {
		return nil, err
	}
	s.pruneCarry(base)
	return s.Report(base)
}

// pruneCarry removes the end states nothing will continue: those of the
// trials a complete rung did not promote, and once the final cell is saved,
// every one of the search's, with the temporary files of writes a killed
// process left (see RungRunner). Nothing is lost by a state removed too
// early or a removal that fails: a split without one trains from its first
// epoch, with the same numbers.
func (s *Search) pruneCarry(base *Runner) {
	w, err := s.walk(base)
	if err != nil {
		return
	}
	dir := CarryDir(base)
	_, final, ok, err := s.Chosen(base)
	done := err == nil && ok && s.FinalRunner(base).LoadExact(final) != nil
	remove := func(p search.Point, splits int) {
		c := s.cell(p, nil)
		for _, k := range s.Splits[:splits] {
			path := carryPath(dir, c, k)
			os.Remove(path)
			if done { // atomicfile's temporary files of this state
				tmps, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*"))
				for _, tmp := range tmps {
					os.Remove(tmp)
				}
			}
		}
	}
	for i, promoted := range w.promoted {
		for _, p := range w.cands[i] {
			if done || !slices.Contains(promoted, p.ID) {
				remove(p, w.rungs[i].Splits)
			}
		}
	}
}

// Work trains the search as one of many workers sharing base.Dir (see
// Runner.Work), rung by rung: it claims cells of the current rung until
// every one is saved (waiting for those other workers hold), then goes on
// to the next rung, whose trials the complete rung promotes, and finally
// to the chosen point's final cell. A static shard is refused: a rung
// waits for all of the previous one.
func (s *Search) Work(ctx context.Context, base *Runner, opt WorkOptions) error {
	if opt.Shard.Count > 0 {
		return errors.New("search: a static shard cannot wait for a rung's other shards; run workers with claims (no shard)")
	}
	if err := s.Validate(); err != nil {
		return err
	}
	rungs, _ := s.Schedule.Rungs()
	for i, r := range rungs {
		cells, err := s.RungCells(base, i)
		if err != nil {
			return err
		}
		s.pruneCarry(base)
		rn := s.RungRunner(base, r)
		if err := rn.Work(ctx, cells, opt); err != nil {
			return err
		}
		for _, c := range cells {
			if rn.LoadExact(c) == nil {
				return fmt.Errorf("search rung %d: %s is not saved after the workers finished", i, cellName(c))
			}
		}
	}
	_, final, _, err := s.Chosen(base)
	if err != nil {
		return err
	}
	s.pruneCarry(base)
	if err := s.FinalRunner(base).Work(ctx, []Cell{final}, opt); err != nil {
		return err
	}
	s.pruneCarry(base)
	return nil
}

// progress writes a line on base.Progress: what starts, the split-epochs of
// the whole search done so far (saved, by any run) and an estimate of the
// time left at this run's pace. It returns the split-epochs done at the
// run's start (given as done0, or measured now when done0 < 0).
func (s *Search) progress(base *Runner, what string, start time.Time, done0 int) int {
	rep, err := s.Report(base)
	if err != nil {
		return done0
	}
	done := rep.Budget.SplitEpochsDone
	if done0 < 0 {
		done0 = done
	}
	if base.Progress == nil {
		return done0
	}
	total := rep.Budget.SplitEpochs + rep.Budget.FinalSplitEpochs
	left := "estimate after the first rung's cells"
	if el := time.Since(start); done > done0 {
		left = "~" + (time.Duration(float64(el)/float64(done-done0)*float64(total-done)) / time.Second * time.Second).String() + " left"
	}
	fmt.Fprintf(base.Progress, "search %s on %s: %s (%d of %d split-epochs done, %s)\n", s.Model, s.Dataset, what, done, total, left)
	return done0
}
