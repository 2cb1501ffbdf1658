package experiments

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/internal/atomicfile"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/train"
)

// Runner runs cells, skipping those already saved under Dir.
type Runner struct {
	// Dir is the results directory; cell results go to Dir/<study>/<key>.json.
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
	// because a single training run does not scale perfectly.
	Jobs             int
	Seed             uint64
	Epochs, Patience int
	// PresetOnly turns off the main table's selection between feature
	// preprocessing candidates (see Candidates): main cells then run only
	// the dataset's preset.
	PresetOnly bool
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
	// Embed maps an n×d embedding to n×2 points (t-SNE) and measurements of
	// it (e.g. the silhouette score); used by cells with Embed set.
	// The test nodes of the cell's split are given too, for measurements
	// restricted to nodes the model was not trained on.
	Embed func(emb *tensor.Dense, y, test []int32) (*tensor.Dense, map[string]float64, error)

	mu      sync.Mutex // guards graphs, prints and loadErr
	graphs  map[string]*graph.Graph
	prints  map[string]string // graph fingerprints, the Data of a result's key
	loadErr map[string]error  // a dataset that failed to load is not tried again
	reg     *models.Registry
}

// Path returns where a cell's result is saved.
func (rn *Runner) Path(c Cell) string {
	return filepath.Join(rn.Dir, c.Study, c.Key()+".json")
}

// LoadExact returns the saved result of exactly c, or nil when there is none
// or it does not answer for c as the runner would train it now: saved for a
// different cell definition or configuration, or keyed by other data (the
// dataset's files changed), another seed or another budget (see
// Result.Data). Unlike Load it makes no selection: for a main-table cell it
// is the preset.
func (rn *Runner) LoadExact(c Cell) *Result {
	if r, current := rn.loadSaved(c); current {
		return r
	}
	return nil
}

// loadSaved returns the result saved for c's definition and configuration,
// if any, and whether its key (data, seed, budget) is the runner's.
func (rn *Runner) loadSaved(c Cell) (*Result, bool) {
	b, err := os.ReadFile(rn.Path(c))
	if err != nil {
		return nil, false
	}
	var r Result
	if json.Unmarshal(b, &r) != nil || !sameCell(r.Cell, c) || !rn.sameConfig(c, r.Config) {
		return nil, false
	}
	return &r, rn.sameKey(c, &r)
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

// sameKey reports whether r was computed from the data of c's dataset as it
// loads now, with the runner's seed and budget, on the metric the dataset is
// scored on now (see Metrics). A dataset that cannot be
// loaded matches nothing: a result is never trusted unchecked.
func (rn *Runner) sameKey(c Cell, r *Result) bool {
	opt := rn.options()
	if r.Seed != opt.Seed || r.Epochs != opt.Epochs || r.Patience != opt.Patience {
		return false
	}
	fp, err := rn.fingerprint(c.Dataset)
	return err == nil && r.Data == fp && rn.sameMetric(c, r.Metric)
}

// fingerprint returns the fingerprint of a dataset (see Result.Data).
func (rn *Runner) fingerprint(name string) (string, error) {
	if _, err := rn.graph(name); err != nil {
		return "", err
	}
	rn.mu.Lock()
	defer rn.mu.Unlock()
	return rn.prints[name], nil
}

// sameConfig reports whether a saved configuration equals the one c resolves
// to now, so that a changed preset makes the saved cell stale instead of
// silently reusing results of another configuration.
func (rn *Runner) sameConfig(c Cell, saved any) bool {
	_, cfg, err := rn.resolve(c)
	if err != nil {
		return false
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		return false
	}
	var now any
	if json.Unmarshal(b, &now) != nil {
		return false
	}
	return reflect.DeepEqual(now, saved)
}

// resolve returns c's model spec and its configuration: the dataset's preset
// with the cell's overrides.
func (rn *Runner) resolve(c Cell) (models.Spec, models.Config, error) {
	if rn.reg == nil {
		rn.reg = models.NewRegistry()
	}
	spec, err := rn.reg.Get(c.Model)
	if err != nil {
		return spec, nil, err
	}
	cfg := spec.Preset(c.Dataset)
	keys := make([]string, 0, len(c.Sets))
	for k := range c.Sets {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := models.SetOption(cfg, k, c.Sets[k]); err != nil {
			return spec, nil, err
		}
	}
	return spec, cfg, nil
}

func sameCell(a, b Cell) bool {
	if len(a.Sets) == 0 && len(b.Sets) == 0 {
		a.Sets, b.Sets = nil, nil
	}
	return reflect.DeepEqual(a, b)
}

// Run runs every cell (every candidate of a main-table cell) not yet saved,
// saving each as it finishes, and returns the results in the order of cells
// (for a main-table cell, the selected candidate; see Load).
func (rn *Runner) Run(cells []Cell) ([]*Result, error) {
	asked := cells
	pl := rn.pending(cells)
	cells, out, todo, cost := pl.cells, pl.saved, pl.todo, pl.cost
	if err := rn.check(cells, todo); err != nil {
		return nil, err
	}
	for _, i := range todo {
		out[i] = nil // a stale result being refreshed
	}
	total := 0
	for _, i := range todo {
		total += len(cells[i].Splits)
	}
	p := newMeter(rn.Progress, len(cells)-len(todo), len(cells), total)
	costs := make([]float64, len(cells))
	for _, i := range todo {
		costs[i] = cost(cells[i])
		p.totalCost += float64(len(cells[i].Splits)) * costs[i]
	}
	if rn.reg == nil {
		rn.reg = models.NewRegistry() // before the workers share it
	}
	if err := rn.runAll(cells, todo, costs, out, p); err != nil {
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
func (rn *Runner) runAll(cells []Cell, todo []int, costs []float64, out []*Result, p *meter) error {
	var (
		mu       sync.Mutex // guards next and firstErr
		next     int
		firstErr error
		wg       sync.WaitGroup
	)
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr != nil || next == len(todo) {
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
				r, err := rn.runCell(context.Background(), c, p, costs[i])
				if err != nil {
					fail(fmt.Errorf("%s %s on %s: %w", c.Study, c.Model, c.Dataset, err))
					return
				}
				if err := rn.save(r); err != nil {
					fail(err)
					return
				}
				out[i] = r
				p.cellDone()
			}
		})
	}
	wg.Wait()
	return firstErr
}

// check resolves and validates the configuration of every cell to be run
// (cells[i] for i in todo), so that a bad option or an out-of-range value in
// any of them fails before the first one is trained.
func (rn *Runner) check(cells []Cell, todo []int) error {
	for _, i := range todo {
		c := cells[i]
		_, cfg, err := rn.resolve(c)
		if err == nil {
			err = cfg.Validate()
		}
		if err != nil {
			return fmt.Errorf("%s %s on %s: %w", c.Study, c.Model, c.Dataset, err)
		}
	}
	return nil
}

func (rn *Runner) graph(name string) (*graph.Graph, error) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.graphs == nil {
		rn.graphs, rn.loadErr = map[string]*graph.Graph{}, map[string]error{}
		rn.prints = map[string]string{}
	}
	if g, ok := rn.graphs[name]; ok {
		return g, nil
	}
	if err := rn.loadErr[name]; err != nil {
		return nil, err
	}
	g, err := datasets.Open(name, rn.Data)
	if err != nil {
		rn.loadErr[name] = err
		return nil, err
	}
	rn.graphs[name], rn.prints[name] = g, g.Fingerprint()
	return g, nil
}

// runCell trains c's splits not yet saved in its partial file; a cancelled
// ctx stops it before its next split (the finished ones are in the partial
// file).
func (rn *Runner) runCell(ctx context.Context, c Cell, p *meter, cost float64) (*Result, error) {
	g, err := rn.graph(c.Dataset)
	if err != nil {
		return nil, err
	}
	if c.LabelsPerClass > 0 {
		if g, err = withRandomSplits(g, c.LabelsPerClass, c.Splits, rn.Seed); err != nil {
			return nil, err
		}
	}
	if c.Embed && rn.Embed == nil {
		return nil, fmt.Errorf("cell asks for embeddings but the runner has no Embed function")
	}
	spec, cfg, err := rn.resolve(c)
	if err != nil {
		return nil, err
	}
	opt := rn.options()
	opt.DropClass = c.DropClass
	if opt.Metric, err = rn.metric(c.Dataset, g); err != nil {
		return nil, err
	}
	fp, err := rn.fingerprint(c.Dataset)
	if err != nil {
		return nil, err
	}
	res := &Result{Cell: c, Metric: opt.Metric, Config: cfg, Numerics: tensor.Numerics(),
		Data: fp, Seed: opt.Seed, Epochs: opt.Epochs, Patience: opt.Patience}
	// splits finished by an interrupted run of this cell are kept if they
	// were computed by the same numerics, or by unrecorded ones unless the
	// run refreshes (the cell then records none either)
	if part := rn.loadPartial(c); part != nil && (part.Numerics == res.Numerics || part.Numerics == "" && !rn.Refresh) {
		res.PerSplit = part.PerSplit
		res.Numerics = part.Numerics
		p.resumed(c, len(part.PerSplit), cost)
	}
	for _, k := range c.Splits[len(res.PerSplit):] {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if k >= len(g.Splits) {
			return nil, fmt.Errorf("split %d requested, %s has %d", k, c.Dataset, len(g.Splits))
		}
		r, err := train.Run(g, k, spec, cfg, opt)
		if err != nil {
			return nil, err
		}
		sr := splitResult(r)
		if c.Collect {
			sr.Nodes = nodeOutputs(r, rn.Threads)
		}
		if rn.Extras != nil {
			sr.Extra = rn.Extras(c, r)
		}
		if c.Embed {
			pts, extra, err := rn.embed(r)
			if err != nil {
				return nil, err
			}
			sr.Points = pts
			if sr.Extra == nil {
				sr.Extra = map[string]float64{}
			}
			for k, v := range extra {
				sr.Extra[k] = v
			}
		}
		res.PerSplit = append(res.PerSplit, sr)
		if len(res.PerSplit) < len(c.Splits) {
			if err := rn.savePartial(res); err != nil {
				return nil, err
			}
		}
		p.splitDone(c, k, cost)
	}
	summarize(res)
	return res, nil
}

// summarize sets res's means and standard deviations from its splits (the
// percentages train.Summarize would give from the runs themselves).
func summarize(res *Result) {
	var test, val, acc, ms []float64
	res.Seconds = 0
	for _, sr := range res.PerSplit {
		test, val, acc, ms = append(test, sr.Test), append(val, sr.Val), append(acc, sr.TestAcc), append(ms, sr.MsPerEpoch)
		res.Seconds += sr.Seconds
	}
	res.TestMean, res.TestStd = train.MeanStd(test)
	res.ValMean, res.ValStd = train.MeanStd(val)
	res.TestAccMean, res.TestAccStd = train.MeanStd(acc)
	res.MsPerEpoch, _ = train.MeanStd(ms)
}

// partialPath is where the finished splits of a cell in progress are kept.
func (rn *Runner) partialPath(c Cell) string {
	return filepath.Join(rn.Dir, c.Study, c.Key()+".partial.json")
}

// savePartial saves the splits of res finished so far, so that a run
// interrupted in the middle of a long cell resumes at its next split.
func (rn *Runner) savePartial(res *Result) error {
	path := rn.partialPath(res.Cell)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, b)
}

// loadPartial returns the finished splits saved for c by an interrupted
// run, or nil when there are none or they were saved for another cell
// definition, configuration or key (data, seed, budget; see Result.Data),
// or by a version that did not record every field the summary needs.
func (rn *Runner) loadPartial(c Cell) *Result {
	b, err := os.ReadFile(rn.partialPath(c))
	if err != nil {
		return nil
	}
	var r Result
	if json.Unmarshal(b, &r) != nil || !sameCell(r.Cell, c) || !rn.sameConfig(c, r.Config) || !rn.sameKey(c, &r) ||
		len(r.PerSplit) >= len(c.Splits) {
		return nil
	}
	for i, sr := range r.PerSplit {
		if sr.Split != c.Splits[i] || sr.MsPerEpoch == 0 {
			return nil
		}
	}
	return &r
}

// plan is the work pending for a list of cells (see Runner.pending).
type plan struct {
	// cells are the cells expanded into their candidates.
	cells []Cell
	// saved[i] is cells[i]'s saved result when it is current (nil where none
	// is; numerics-stale ones too, see Refresh).
	saved []*Result
	// todo are the indices of the cells still to run.
	todo []int
	// stale[i] marks a cell whose saved result is stale: other numerics, or
	// a key (data, seed, budget) other than the runner's, which is never used.
	stale []bool
	// cost estimates the seconds one split of a cell takes.
	cost func(Cell) float64
}

// pending expands cells into their candidates and returns them with their
// saved results, the cells still to run and an estimate of the seconds one
// split of a cell takes: its graph's size times the rate (seconds per split
// per unit of size) of the same model on the same dataset in saved cells,
// or, without any, the model's rate over all datasets. Per-dataset presets
// can differ a lot (PCGCN runs hidden 512 on Cora, 64 elsewhere), so the
// model's median alone misjudged such cells several-fold.
func (rn *Runner) pending(cells []Cell) plan {
	cells = rn.expand(cells)
	p := plan{cells: cells, saved: make([]*Result, len(cells)), stale: make([]bool, len(cells))}
	rates := map[string][]float64{} // by model, and by model and dataset (pairKey)
	for i, c := range cells {
		if r, current := rn.loadSaved(c); r != nil {
			rn.addRate(rates, r)
			p.stale[i] = !current || Stale(r)
			if current {
				p.saved[i] = r
				if !rn.Refresh || !Stale(r) {
					continue
				}
			}
		}
		p.todo = append(p.todo, i)
	}
	rn.savedRates(cells, p.todo, rates)
	rate := modelRates(rates)
	p.cost = func(c Cell) float64 {
		if _, ok := rates[pairKey(c)]; ok {
			return rate(pairKey(c)) * rn.splitCost(c)
		}
		return rate(c.Model) * rn.splitCost(c)
	}
	return p
}

// Stale reports whether a saved result was computed by other numerics than
// this build's, or does not record its numerics: training it again gives
// numbers within its spread but not bit for bit the same.
func Stale(r *Result) bool { return r.Numerics != tensor.Numerics() }

// pairKey is the rates key of a model on a dataset.
func pairKey(c Cell) string { return c.Model + "\x00" + c.Dataset }

// addRate records the measured rate of a saved result under its model and
// under its model and dataset.
func (rn *Runner) addRate(rates map[string][]float64, r *Result) {
	n := len(r.PerSplit)
	if n == 0 || r.Seconds <= 0 {
		return
	}
	v := r.Seconds / float64(n) / rn.splitCost(r.Cell)
	rates[r.Cell.Model] = append(rates[r.Cell.Model], v)
	rates[pairKey(r.Cell)] = append(rates[pairKey(r.Cell)], v)
}

// savedRates adds to rates, for each model and dataset of the pending cells
// that has no rate yet, the rates of its cells saved under Dir by any study,
// so that a plan restricted to cells not yet run (--models, --datasets)
// still has the measured speed instead of a guess.
func (rn *Runner) savedRates(cells []Cell, todo []int, rates map[string][]float64) {
	need := map[string]bool{}
	for _, i := range todo {
		if len(rates[pairKey(cells[i])]) == 0 {
			need[pairKey(cells[i])] = true
			need[cells[i].Model] = len(rates[cells[i].Model]) == 0
		}
	}
	if len(need) == 0 {
		return
	}
	rn.scanSaved(func(_ string, r *Result) {
		if pk := pairKey(r.Cell); need[pk] || need[r.Cell.Model] {
			v := r.Seconds / float64(len(r.PerSplit)) / rn.splitCost(r.Cell)
			if need[pk] {
				rates[pk] = append(rates[pk], v)
			}
			if need[r.Cell.Model] {
				rates[r.Cell.Model] = append(rates[r.Cell.Model], v)
			}
		}
	})
}

// scanSaved calls fn with every result saved under Dir (any study, any key)
// that has timed splits.
func (rn *Runner) scanSaved(fn func(path string, r *Result)) {
	files, _ := filepath.Glob(filepath.Join(rn.Dir, "*", "*.json"))
	for _, f := range files {
		if strings.HasSuffix(f, ".partial.json") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var r Result
		if json.Unmarshal(b, &r) != nil || len(r.PerSplit) == 0 || r.Seconds <= 0 {
			continue
		}
		fn(f, &r)
	}
}

// PlanEntry summarises the work left in one study.
type PlanEntry struct {
	Study string `json:"study"`
	Cells int    `json:"cells"`
	Done  int    `json:"done"`
	// Stale counts the saved cells of other or unrecorded numerics (see
	// Stale), which with Refresh are not counted as done, and those saved
	// with another key (data, seed or budget; see Result.Data), which are
	// never used and so never done.
	Stale int `json:"stale"`
	// Claimed counts the cells left that a live worker holds (see Work).
	Claimed    int     `json:"claimed"`
	Splits     int     `json:"splits_left"`
	EstSeconds float64 `json:"estimated_seconds"`
	// Costs are the estimated seconds of each cell left (all its splits),
	// for an estimate over several workers (see Makespan).
	Costs []float64 `json:"-"`
}

// Plan reports, per study, how many of cells (with their candidates) are
// saved and how many splits are left, with an estimate of the time they take
// from the models' rates in the saved cells (seconds as measured then, at
// the thread count and load of those runs). It trains nothing.
func (rn *Runner) Plan(cells []Cell) []PlanEntry {
	pl := rn.pending(cells)
	run := map[int]bool{}
	for _, i := range pl.todo {
		run[i] = true
	}
	var order []string
	by := map[string]*PlanEntry{}
	for i, c := range pl.cells {
		e := by[c.Study]
		if e == nil {
			e = &PlanEntry{Study: c.Study}
			by[c.Study] = e
			order = append(order, c.Study)
		}
		e.Cells++
		if pl.stale[i] {
			e.Stale++
		}
		if !run[i] {
			e.Done++
			continue
		}
		if live, _ := rn.claimState(c, rn.lease()); live {
			e.Claimed++
		}
		cost := float64(len(c.Splits)) * pl.cost(c)
		e.Splits += len(c.Splits)
		e.EstSeconds += cost
		e.Costs = append(e.Costs, cost)
	}
	plan := make([]PlanEntry, len(order))
	for i, s := range order {
		plan[i] = *by[s]
	}
	return plan
}

// modelRates returns the time per split per unit of graph size of a model:
// the median over its cells already saved in the plan, or, for a model
// without any, the median over all models (1 when nothing is known). Models
// differ by two orders of magnitude (a 64-layer GCNII against SGC), so
// weighting the splits left by graph size alone gave estimates off by as
// much.
func modelRates(rates map[string][]float64) func(model string) float64 {
	median := func(v []float64) float64 {
		v = append([]float64(nil), v...)
		sort.Float64s(v)
		return v[len(v)/2]
	}
	med := map[string]float64{}
	var all []float64
	for m, v := range rates {
		med[m] = median(v)
		if !strings.Contains(m, "\x00") { // a model's own rate, not a model-and-dataset one
			all = append(all, med[m])
		}
	}
	// With no history at all, the model's rate in the committed results
	// (referenceRate), so that a plan in a fresh directory is sized from
	// real runs; for a model without one, the median of the others.
	fallback := 1e-4
	if len(all) > 0 {
		fallback = median(all)
	}
	return func(model string) float64 {
		if r, ok := med[model]; ok {
			return r
		}
		if r, ok := referenceRate(model); ok && len(all) == 0 {
			return r
		}
		return fallback
	}
}

// referenceRate is a model's median time per split per unit of graph size
// (seconds per node, adjacency entry and feature non-zero) over the
// committed results/ cells of the paper's reproduction (2-core AMD EPYC,
// one thread per cell, two cells at once), for the estimates of a results
// directory with no saved cell yet: rates differ by 40× between models (SGC
// against a 64-layer GCNII), which one guessed rate cannot cover.
func referenceRate(model string) (float64, bool) {
	switch model {
	case "mlp":
		return 1.68e-5, true
	case "sgc":
		return 1.93e-5, true
	case "gcn":
		return 2.8e-5, true
	case "appnp":
		return 3.3e-5, true
	case "sage":
		return 4.12e-5, true
	case "gprgnn":
		return 4.17e-5, true
	case "glognn":
		return 4.82e-5, true
	case "h2gcn-1":
		return 4.96e-5, true
	case "mixhop":
		return 5.83e-5, true
	case "fagcn":
		return 7.73e-5, true
	case "h2gcn-2":
		return 9.11e-5, true
	case "pcgcn":
		return 1.04e-4, true
	case "gat":
		return 1.14e-4, true
	case "ggcn":
		return 1.67e-4, true
	case "linkx":
		return 1.87e-4, true
	case "gcnii":
		return 6.45e-4, true
	}
	return 0, false
}

// splitCost estimates the relative cost of training one split of c, for the
// time-left estimate: the size of the dataset's graph and features (nodes,
// edges and feature non-zeros), or 1 when the graph cannot be loaded.
func (rn *Runner) splitCost(c Cell) float64 {
	g, err := rn.graph(c.Dataset)
	if err != nil {
		return 1
	}
	nnz := g.X.Cols() * g.N
	if g.X.Sparse != nil {
		nnz = g.X.Sparse.NNZ()
	}
	return float64(g.N + g.Adj.NNZ() + nnz)
}

// withRandomSplits returns a shallow copy of g whose splits are random
// label-rate splits (index k drawn with a seed derived from seed, perClass, k).
func withRandomSplits(g *graph.Graph, perClass int, splits []int, seed uint64) (*graph.Graph, error) {
	n := 0
	for _, k := range splits {
		n = max(n, k+1)
	}
	cp := g.ShallowCopy()
	cp.Splits = make([]graph.Split, n)
	for k := 0; k < n; k++ {
		sp, err := graph.RandomSplit(g, perClass, LabelRateVal, train.SplitSeed(seed+uint64(perClass)*7919, k))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", g.Name, err)
		}
		cp.Splits[k] = sp
	}
	return cp, nil
}

// embed evaluates the trained model and maps its embedding to 2-D points.
func (rn *Runner) embed(r *train.Result) ([][2]float32, map[string]float64, error) {
	t := autograd.NewTape(tensor.Exec{Threads: rn.Threads})
	t.SetNoGrad(true)
	out := r.Model.Forward(t)
	if out.Embedding == nil {
		return nil, nil, fmt.Errorf("model gives no embedding")
	}
	xy, extra, err := rn.Embed(out.Embedding.Value, r.Data.Graph.Y, r.Data.Test)
	if err != nil {
		return nil, nil, err
	}
	pts := make([][2]float32, xy.Rows)
	for i := range pts {
		pts[i] = [2]float32{xy.At(i, 0), xy.At(i, 1)}
	}
	return pts, extra, nil
}

// nodeOutputs evaluates the trained model and records test-node correctness.
func nodeOutputs(r *train.Result, threads int) *NodeOutputs {
	t := autograd.NewTape(tensor.Exec{Threads: threads})
	logits := train.Logits(t, r.Model)
	pred := train.Predict(logits)
	no := &NodeOutputs{Test: r.Data.Test, Correct: make([]bool, len(r.Data.Test))}
	for k, i := range r.Data.Test {
		no.Correct[k] = pred[i] == r.Data.Graph.Y[i]
	}
	return no
}

func (rn *Runner) save(r *Result) error {
	defer os.Remove(rn.partialPath(r.Cell))
	path := rn.Path(r.Cell)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, append(b, '\n'))
}

// WriteFileAtomic writes data to path so that readers never see a partial
// file (see internal/atomicfile).
func WriteFileAtomic(path string, data []byte) error { return atomicfile.Write(path, data) }

// meter reports progress over the splits of a plan with an estimate of the
// time left, one line per finished split. Its methods may be called from
// several cells training at once.
type meter struct {
	mu                sync.Mutex
	w                 io.Writer
	cellsDone, cells  int
	splitsDone, total int
	start             time.Time
	// costDone and totalCost weigh splits by their estimated cost (model
	// rate × graph size); the time left is the cost left at the pace of the
	// cost done, which calibrates the estimate to the machine and its load.
	costDone, totalCost float64
}

func newMeter(w io.Writer, done, cells, total int) *meter {
	m := &meter{w: w, cellsDone: done, cells: cells, total: total, start: time.Now()}
	if w != nil && done > 0 {
		fmt.Fprintf(w, "%d of %d cells already done, resuming\n", done, cells)
	}
	return m
}

func variantSuffix(c Cell) string {
	s := ""
	if c.Variant != "" {
		s += " [" + c.Variant + "]"
	}
	if c.DropClass >= 0 {
		s += fmt.Sprintf(" [class %d dropped]", c.DropClass)
	}
	if c.Variant == "" && len(c.Sets) > 0 {
		keys := make([]string, 0, len(c.Sets))
		for k := range c.Sets {
			keys = append(keys, k+"="+c.Sets[k])
		}
		sort.Strings(keys)
		s += " [" + strings.Join(keys, " ") + "]"
	}
	return s
}

// splitDone counts split k of c, whose estimated cost is cost, and prints
// the progress line.
func (m *meter) splitDone(c Cell, k int, cost float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.splitsDone++
	m.costDone += cost
	if m.w == nil {
		return
	}
	el := time.Since(m.start)
	left := time.Duration(float64(el) / float64(m.splitsDone) * float64(m.total-m.splitsDone))
	if m.costDone > 0 && m.totalCost > 0 {
		left = time.Duration(float64(el) / m.costDone * (m.totalCost - m.costDone))
	}
	fmt.Fprintf(m.w, "[%3.0f%%] %d/%d splits, %s elapsed, ~%s left: %s %s/%s%s split %d\n", 100*float64(m.splitsDone)/float64(max(m.total, 1)),
		m.splitsDone, m.total, el.Round(time.Second), left.Round(time.Second), c.Study, c.Model, c.Dataset, variantSuffix(c), k)
}

func (m *meter) cellDone() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cellsDone++
}

// resumed takes n splits of c, finished by an earlier run, out of the plan.
func (m *meter) resumed(c Cell, n int, cost float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.total -= n
	m.totalCost -= float64(n) * cost
	if m.w != nil && n > 0 {
		fmt.Fprintf(m.w, "%s %s/%s%s: %d of its %d splits were saved by an interrupted run; resuming\n",
			c.Study, c.Model, c.Dataset, variantSuffix(c), n, len(c.Splits))
	}
}

func (m *meter) finish() {
	if m.w != nil {
		fmt.Fprintf(m.w, "%d cells done, %d splits trained in %s\n", m.cells, m.splitsDone, time.Since(m.start).Round(time.Second))
	}
}
