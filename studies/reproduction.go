package studies

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/train"
)

// A Reproduction is a set of Options resolved: the studies selected, the
// cells they need (one plan over all of them, so that progress and the time
// estimate cover the whole run) and the runner that trains and loads them.
type Reproduction struct {
	p        *plan
	selected []study
	cells    []experiments.Cell
}

// New checks opt (study, model and dataset names) and resolves it.
func New(opt Options) (*Reproduction, error) {
	return newReproduction(opt, registry())
}

// newReproduction is New over the studies of all (the registry, or in a
// test the registry and a study of its own).
func newReproduction(opt Options, all []study) (*Reproduction, error) {
	selected, err := selectStudies(all, opt.Only)
	if err != nil {
		return nil, err
	}
	reg := models.NewRegistry()
	for _, m := range opt.Models {
		if _, err := reg.Get(m); err != nil {
			return nil, err
		}
	}
	for _, d := range opt.Datasets {
		if !datasets.IsPath(d) {
			if _, err := datasets.Lookup(d); err != nil {
				return nil, err
			}
		}
	}
	p := newPlanOf(opt, all)
	r := &Reproduction{p: p, selected: selected}
	for _, s := range selected {
		if s.cells != nil {
			r.cells = append(r.cells, s.cells(p)...)
		}
	}
	return r, nil
}

// ResultsDir is where the cells are saved (<ResultsDir>/quick in quick
// mode; under seed<N>/ for a seed other than 42, see
// experiments.Runner.KeyDir).
func (r *Reproduction) ResultsDir() string { return r.p.runner.KeyDir() }

// DocsDir is where the reports are written (<ResultsDir>/quick in quick
// mode; beside the cells, in <ResultsDir>/seed<N>, for a seed other than
// 42, so that the committed reports stay those of the base seed).
func (r *Reproduction) DocsDir() string { return r.p.docs }

// Plan reports, per study, the work Run would do: cells saved, splits left
// and an estimate of their time (see experiments.Runner.Plan), and for a
// study that measures instead (complexity) its measurements saved and left.
// It trains and measures nothing.
func (r *Reproduction) Plan() []experiments.PlanEntry {
	plan := r.p.runner.Plan(r.cells)
	for _, s := range r.selected {
		if s.planned != nil {
			plan = append(plan, s.planned(r.p))
		}
	}
	return plan
}

// Run trains the cells not yet saved, takes the selected studies'
// measurements not yet saved (the complexity study's), and writes the
// reports.
func (r *Reproduction) Run() error {
	if _, err := r.p.runner.Run(r.cells); err != nil {
		return err
	}
	for _, s := range r.selected {
		if s.measure != nil {
			if err := s.measure(context.Background(), r.p); err != nil {
				return fmt.Errorf("study %s: %w", s.name, err)
			}
		}
	}
	return r.Render()
}

// Render writes the reports of the selected studies from the saved results
// alone: it trains nothing, and a study whose cells are not all saved says so
// in its section. It is the step after workers (see Work) have trained the
// plan. docs/report.md, written when a selected study has a section there,
// renders every study's section. Every report renders the full plan from the
// saved cells (see fullPlan), not this invocation's subset (--datasets,
// --models, --splits): a run on a part of the plan never takes the rest out
// of the reports.
func (r *Reproduction) Render() error {
	full := r.p.fullPlan()
	if slices.ContainsFunc(r.selected, func(s study) bool { return s.section != nil }) {
		if err := full.writeReport(); err != nil {
			return err
		}
	}
	for _, s := range r.selected {
		if s.page != nil {
			if err := s.page(full); err != nil {
				return fmt.Errorf("study %s: %w", s.name, err)
			}
		}
	}
	return nil
}

// Work trains the cells as one of many workers sharing the results directory
// (see experiments.Runner.Work). It renders nothing: Render does, once the
// workers are done. It takes no measurements (the complexity study's need
// the machine to themselves: run them with Run, alone), but does a study's
// shared work (the fair study's searches, rung by rung through the claims)
// after the cells.
func (r *Reproduction) Work(ctx context.Context, wo experiments.WorkOptions) error {
	if err := r.p.runner.Work(ctx, r.cells, wo); err != nil {
		return err
	}
	for _, s := range r.selected {
		if s.work != nil {
			if err := s.work(ctx, r.p, wo); err != nil {
				return fmt.Errorf("study %s: %w", s.name, err)
			}
		}
	}
	return nil
}

// plan is a resolved reproduction, what each study's cells, section and page
// are computed from.
type plan struct {
	opt    Options
	runner *experiments.Runner
	// splits are the splits run (the first quickSplits in quick mode).
	splits []int
	// fallback, in the plan the reports render (fullPlan), are this
	// invocation's splits when they are not the full plan's: a cell with no
	// saved result of the full plan's splits is rendered from one of these
	// (see load).
	fallback []int
	// docs is the directory of the reports, figDir that of their figures.
	docs, figDir string
	// all are the studies of the registry the plan was made from, whose
	// sections docs/report.md holds and whose hooks the runner has.
	all []study
	// signed caches signedFeatures by dataset.
	signed map[string]bool
}

// newPlan is newPlanOf over the registry.
func newPlan(opt Options) *plan { return newPlanOf(opt, registry()) }

// newPlanOf resolves opt's defaults and quick mode and sets up the runner
// with the hooks of every study of all.
func newPlanOf(opt Options, all []study) *plan {
	if opt.ResultsDir == "" {
		opt.ResultsDir = "results"
	}
	if opt.DocsDir == "" {
		opt.DocsDir = "docs"
	}
	if len(opt.Splits) == 0 {
		opt.Splits = allSplits(defaultSplits)
	}
	if opt.Start.IsZero() {
		opt.Start = time.Now()
	}
	p := &plan{opt: opt, all: all, signed: map[string]bool{}, splits: opt.Splits, docs: opt.DocsDir}
	p.runner = &experiments.Runner{Dir: opt.ResultsDir, Data: opt.Data, Threads: opt.Threads, Jobs: opt.Jobs, Seed: opt.Seed,
		Progress: opt.Progress, Refresh: opt.Refresh, Lease: opt.Lease, Metrics: opt.Metrics, ReferenceRates: ReferenceRates(), SearchReferenceRates: SearchReferenceRates(), Stop: opt.Stop}
	if opt.Quick {
		p.splits = opt.Splits[:min(quickSplits, len(opt.Splits))]
		p.runner.Epochs, p.runner.Patience = quickEpochs, quickPatience
		p.runner.Dir = filepath.Join(opt.ResultsDir, quickDir)
		p.docs = p.runner.Dir
	}
	if p.runner.KeyDir() != p.runner.Dir { // another seed: its reports beside its cells
		p.docs = p.runner.KeyDir()
	}
	p.figDir = filepath.Join(p.docs, "figures")
	p.hook(all)
	return p
}

// hook gives the runner the hooks of the studies: each study's candidates
// for its own cells, and every study's measurements, preparation and
// outputs on every cell (each acting on its own settings).
func (p *plan) hook(all []study) {
	var extras []func(experiments.Cell, *train.Result) map[string]float64
	var prepares []func(*plan, experiments.Cell, *graph.Graph, *train.Options) (*graph.Graph, error)
	var outputs []func(*plan, experiments.Cell, *train.Result, *experiments.SplitResult) error
	candidates := map[string]func(*plan, experiments.Cell, models.Spec, models.Config) []experiments.Cell{}
	for _, s := range all {
		if s.candidates != nil {
			candidates[s.name] = s.candidates
		}
		if s.extras != nil {
			extras = append(extras, s.extras)
		}
		if s.prepare != nil {
			prepares = append(prepares, s.prepare)
		}
		if s.outputs != nil {
			outputs = append(outputs, s.outputs)
		}
	}
	p.runner.Prepare = func(c experiments.Cell, g *graph.Graph, opt *train.Options) (*graph.Graph, error) {
		for _, f := range prepares {
			var err error
			if g, err = f(p, c, g, opt); err != nil {
				return nil, err
			}
		}
		return g, nil
	}
	p.runner.Outputs = func(c experiments.Cell, r *train.Result, sr *experiments.SplitResult) error {
		for _, f := range outputs {
			if err := f(p, c, r, sr); err != nil {
				return err
			}
		}
		return nil
	}
	if len(candidates) > 0 {
		p.runner.Select = func(c experiments.Cell, spec models.Spec, cfg models.Config) []experiments.Cell {
			if f := candidates[c.Study]; f != nil {
				return f(p, c, spec, cfg)
			}
			return []experiments.Cell{c}
		}
	}
	if len(extras) > 0 {
		p.runner.Extras = func(c experiments.Cell, r *train.Result) map[string]float64 {
			var out map[string]float64
			for _, f := range extras {
				for k, v := range f(c, r) {
					if out == nil {
						out = map[string]float64{}
					}
					out[k] = v
				}
			}
			return out
		}
	}
}

// fullPlan is p for the reports: every saved result of the default plan of
// the selected studies, not only this run's datasets, models and splits
// (graphs given by path stay; a quick run reports what it ran). A cell is
// rendered from its saved splits 0-9, or, when those are not all saved, from
// this run's splits (fallback), so that a cell only ever run on a few
// splits, as an own graph's, is still in the reports.
func (p *plan) fullPlan() *plan {
	full := *p
	if !p.opt.Quick {
		full.opt.Datasets, full.opt.Models, full.opt.PathsOnly = nil, nil, false
		for _, d := range p.opt.Datasets {
			if datasets.IsPath(d) {
				full.opt.Datasets = append(full.opt.Datasets, d)
			}
		}
		full.splits = allSplits(defaultSplits)
		if !slices.Equal(p.splits, full.splits) {
			full.fallback = p.splits
		}
	}
	return &full
}

// defaultSplits is how many standard splits a plan runs by default (0-9),
// and the full plan the reports render.
const defaultSplits = 10

// load is the runner's Load of c, or, when nothing is saved for c's splits,
// of c on the fallback splits (see fullPlan).
func (p *plan) load(c experiments.Cell) *experiments.Result {
	return p.loadWith(c, p.runner.Load)
}

// loadExact is load without the main table's selection (the runner's
// LoadExact).
func (p *plan) loadExact(c experiments.Cell) *experiments.Result {
	return p.loadWith(c, p.runner.LoadExact)
}

func (p *plan) loadWith(c experiments.Cell, load func(experiments.Cell) *experiments.Result) *experiments.Result {
	r := load(c)
	if r == nil && p.fallback != nil && slices.Equal(c.Splits, p.splits) {
		c.Splits = p.fallback
		r = load(c)
	}
	return r
}

// allSplits returns 0..n-1.
func allSplits(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
