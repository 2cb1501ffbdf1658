// Package studies runs the PCGCN paper's experiments end to end and writes
// the report: the dataset statistics, the main table, accuracy by node
// homophily, t-SNE of embeddings, accuracy by shortest label distance, the
// label-rate curves, the missing-class tables, the ablation, partial control
// and the matching degree. Each study lists cells for the experiments runner
// (which saves and resumes them) and renders a section of docs/report.md from
// the saved cells: the paper's claim, its numbers, ours, and a sentence on
// whether the claim holds here, computed from the numbers.
package studies

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/report"
)

// Options configure a reproduction.
type Options struct {
	// Only lists the studies to run (all when empty): see Names.
	Only []string
	// Datasets overrides each study's datasets (intersected with what the
	// study can use; studies needing the paper's datasets keep theirs when
	// the intersection is empty).
	Datasets []string
	// Models are the models of the main table (default: every registered
	// model; in quick mode pcgcn, gcn, gat, mlp and linkx).
	Models []string
	// Splits are the standard splits to run (default 0-9).
	Splits []int
	// Quick runs 2 splits, at most 60 epochs, small label-rate and t-SNE
	// settings and small datasets: the whole pipeline in minutes.
	Quick bool
	// ResultsDir holds the per-cell JSON (default "results").
	ResultsDir string
	// ReportPath is where the Markdown report goes (default docs/report.md);
	// figures go to a "figures" directory beside it.
	ReportPath string
	// Data resolves datasets.
	Data datasets.Options
	// Threads and Seed configure training; Jobs cells train at once (see
	// experiments.Runner.Jobs).
	Threads, Jobs int
	Seed          uint64
	// PresetOnly reports the main table's presets instead of selecting the
	// feature preprocessing on validation (see experiments.Runner.PresetOnly).
	PresetOnly bool
	// Refresh trains saved cells of other numerics again (see
	// experiments.Runner.Refresh).
	Refresh bool
	// Lease is how long a worker's claim on a cell lives without renewal
	// (see experiments.Runner.Lease; 0: the default).
	Lease time.Duration
	// Metrics chooses datasets' metrics (see experiments.Runner.Metrics).
	Metrics map[string]datasets.Metric
	// Progress receives progress lines (nil: quiet).
	Progress io.Writer
}

// Names lists the studies in report order.
func Names() []string {
	return []string{"stats", "main", "hete", "tsne", "sld", "labelrate", "missing", "ablation", "partial", "matching"}
}

// study is one section of the report.
type study struct {
	name  string
	title string
	// cells returns the cells the study needs (possibly none).
	cells func(p *plan) []experiments.Cell
	// render writes the section from saved results.
	render func(p *plan, w io.Writer) error
}

// plan is a resolved reproduction.
type plan struct {
	opt     Options
	runner  *experiments.Runner
	figDir  string
	graphs  map[string]*graph.Graph
	splits  []int
	started time.Time
}

func (p *plan) graph(name string) (*graph.Graph, error) {
	if g, ok := p.graphs[name]; ok {
		return g, nil
	}
	g, err := datasets.Open(name, p.opt.Data)
	if err != nil {
		return nil, err
	}
	p.graphs[name] = g
	return g, nil
}

// numClasses returns a dataset's class count: the registry's when the name
// is registered (so that a plan lists a study's cells also where the files
// are not at hand), else the loaded graph's.
func (p *plan) numClasses(name string) (int, error) {
	if !datasets.IsPath(name) {
		if e, err := datasets.Lookup(name); err == nil && e.Classes > 0 {
			return e.Classes, nil
		}
	}
	g, err := p.graph(name)
	if err != nil {
		return 0, err
	}
	return g.NumClasses, nil
}

// datasets returns the study's default datasets narrowed by the registry
// names in Options.Datasets (when that leaves any), plus every dataset given
// as a path (--data). In quick mode the defaults are the small WebKB graphs,
// or only the given paths when there are some.
func (p *plan) datasets(defaults []string) []string {
	var named, paths []string
	for _, w := range p.opt.Datasets {
		if datasets.IsPath(w) {
			paths = append(paths, w)
		} else {
			named = append(named, w)
		}
	}
	if p.opt.Quick && len(named) == 0 {
		if len(paths) > 0 {
			return paths
		}
		named = []string{"cornell", "texas", "wisconsin"}
	}
	if len(named) == 0 {
		return append(append([]string{}, defaults...), paths...)
	}
	var out []string
	for _, d := range defaults {
		for _, w := range named {
			if d == w {
				out = append(out, d)
			}
		}
	}
	if len(out) == 0 {
		if p.opt.Quick {
			out = named
		} else {
			out = append([]string{}, defaults...)
		}
	}
	return append(out, paths...)
}

// results loads the saved results of cells, skipping missing ones (main
// cells: the validation-selected candidate).
func (p *plan) results(cells []experiments.Cell) []*experiments.Result {
	return loadAll(cells, p.runner.Load)
}

// presetResults is results without the main table's selection: the preset
// candidate of each main cell, the baseline of studies whose variants change
// one switch of the preset (ablation, partial control, missing classes).
func (p *plan) presetResults(cells []experiments.Cell) []*experiments.Result {
	return loadAll(cells, p.runner.LoadExact)
}

func loadAll(cells []experiments.Cell, load func(experiments.Cell) *experiments.Result) []*experiments.Result {
	var rs []*experiments.Result
	for _, c := range cells {
		if r := load(c); r != nil {
			rs = append(rs, r)
		}
	}
	return rs
}

// Run runs the selected studies and writes the report.
func Run(opt Options) error {
	p, cells, err := newPlan(opt)
	if err != nil {
		return err
	}
	if _, err := p.runner.Run(cells); err != nil {
		return err
	}
	return p.render()
}

// Render writes the report from the saved results alone: it trains nothing,
// and a study whose cells are not all saved says so in its section. It is
// the step after workers (see Work) have trained the plan.
func Render(opt Options) error {
	p, _, err := newPlan(opt)
	if err != nil {
		return err
	}
	return p.render()
}

// Work trains the cells of the selected studies, and the extra cells given
// (the main table's datasets beyond the studies', the fidelity grid), as one
// of many workers sharing the results directory (see
// experiments.Runner.Work). It renders nothing: Render does, once the
// workers are done.
func Work(ctx context.Context, opt Options, extra []experiments.Cell, wo experiments.WorkOptions) error {
	p, cells, err := newPlan(opt)
	if err != nil {
		return err
	}
	p.runner.Lease = opt.Lease
	return p.runner.Work(ctx, append(extra, cells...), wo)
}

// render writes the report of p from the saved results.
func (p *plan) render() error {
	// a full run's report shows every saved result, not only this run's
	// datasets and models (a quick run reports what it ran)
	render := *p
	if !p.opt.Quick {
		render.opt.Datasets, render.opt.Models = nil, nil
		for _, d := range p.opt.Datasets {
			if datasets.IsPath(d) {
				render.opt.Datasets = append(render.opt.Datasets, d)
			}
		}
	}
	return render.writeReport(allStudies())
}

// newPlan sets up the runner and lists the cells of every selected study:
// one plan over all of them, so that progress and the time estimate cover
// the whole run.
func newPlan(opt Options) (*plan, []experiments.Cell, error) {
	if opt.ResultsDir == "" {
		opt.ResultsDir = "results"
	}
	if opt.ReportPath == "" {
		opt.ReportPath = filepath.Join("docs", "report.md")
	}
	if len(opt.Splits) == 0 {
		opt.Splits = experiments.AllSplits(10)
	}
	p := &plan{opt: opt, graphs: map[string]*graph.Graph{}, started: time.Now(), splits: opt.Splits}
	p.runner = &experiments.Runner{Dir: opt.ResultsDir, Data: opt.Data, Threads: opt.Threads, Jobs: opt.Jobs, Seed: opt.Seed,
		Progress: opt.Progress, Extras: experiments.MatchingExtras, Embed: p.embed, PresetOnly: opt.PresetOnly, Refresh: opt.Refresh,
		Metrics: opt.Metrics}
	if opt.Quick {
		p.splits = opt.Splits[:min(2, len(opt.Splits))]
		p.runner.Epochs, p.runner.Patience = 60, 30
		p.runner.Dir = filepath.Join(opt.ResultsDir, "quick")
	}
	p.figDir = filepath.Join(filepath.Dir(opt.ReportPath), "figures")
	selected, err := selectStudies(opt.Only)
	if err != nil {
		return nil, nil, err
	}
	var cells []experiments.Cell
	for _, s := range selected {
		if s.cells != nil {
			cells = append(cells, s.cells(p)...)
		}
	}
	return p, cells, nil
}

// Plan reports, per study, the work the same Options would leave to Run:
// cells saved, splits left and an estimate of their time (see
// experiments.Runner.Plan). It trains nothing.
func Plan(opt Options) ([]experiments.PlanEntry, error) {
	p, cells, err := newPlan(opt)
	if err != nil {
		return nil, err
	}
	return p.runner.Plan(cells), nil
}

func selectStudies(only []string) ([]study, error) {
	all := allStudies()
	if len(only) == 0 {
		return all, nil
	}
	var out []study
	for _, name := range only {
		found := false
		for _, s := range all {
			if s.name == name {
				out = append(out, s)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown study %q (valid: %s)", name, strings.Join(Names(), ", "))
		}
	}
	return out, nil
}

// writeReport renders every study from whatever results are saved (a study
// not yet run says so), atomically.
func (p *plan) writeReport(all []study) error {
	if err := os.MkdirAll(p.figDir, 0o755); err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Reproducing \"Steering Graph Neural Networks with Pinning Control\"\n\n")
	fmt.Fprintf(&b, "Generated by `%s` on %s; this invocation took %s. Every number is in `%s/` (one JSON file per cell); figures are in `%s/`.",
		p.command(), Machine(), time.Since(p.started).Round(time.Second), p.runner.Dir, filepath.Base(p.figDir))
	// the report renders every saved cell, whichever invocation trained it
	var cells []experiments.Cell
	for _, s := range all {
		if s.cells != nil {
			cells = append(cells, s.cells(p)...)
		}
	}
	saved, stale, total := 0, 0, 0
	var secs float64
	seen := map[string]bool{}
	for _, c := range cells {
		for _, k := range p.runner.Candidates(c) {
			if path := p.runner.Path(k); !seen[path] {
				seen[path] = true
				total++
				if r := p.runner.LoadExact(k); r != nil {
					saved++
					secs += r.Seconds
					if experiments.Stale(r) {
						stale++
					}
				}
			}
		}
	}
	b.WriteString(coverage(saved, total, time.Duration(secs)*time.Second))
	if note := report.StaleNote(stale, saved); note != "" {
		b.WriteString(note + "\n\n")
	}
	if p.opt.Quick {
		fmt.Fprintln(&b, "**Quick mode: 2 splits and at most 60 epochs on small graphs. A check of the pipeline, not results.**")
		fmt.Fprintln(&b)
	}
	for i, s := range all {
		fmt.Fprintf(&b, "## %d. %s\n\n", i+1, s.title)
		if err := s.render(p, &b); err != nil {
			return fmt.Errorf("study %s: %w", s.name, err)
		}
		fmt.Fprintln(&b)
	}
	if err := os.MkdirAll(filepath.Dir(p.opt.ReportPath), 0o755); err != nil {
		return err
	}
	return experiments.WriteFileAtomic(p.opt.ReportPath, []byte(b.String()))
}

func (p *plan) command() string {
	c := "pcgcn reproduce"
	if len(p.opt.Only) > 0 {
		c += " --only " + strings.Join(p.opt.Only, ",")
	}
	if p.opt.Quick {
		c += " --quick"
	}
	return c
}

// figure returns the path of a figure file and its link relative to the
// report. name may contain a dataset given as a path (--data): every
// character outside [A-Za-z0-9._-] becomes '_'.
func (p *plan) figure(name string) (path, link string) {
	name = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, strings.TrimLeft(name, "/."))
	return filepath.Join(p.figDir, name), filepath.Join(filepath.Base(p.figDir), name)
}

// coverage is the report header's sentence on how much of the full plan the
// report renders and the training time of those cells, summed over the
// invocations that trained them.
func coverage(saved, total int, training time.Duration) string {
	training = training.Round(time.Minute)
	if saved == total {
		return fmt.Sprintf(" It renders all %d cells of the full plan, whose training took %s in all, summed over the invocations that trained them.\n\n", total, training)
	}
	return fmt.Sprintf(" It renders the %d of the %d cells of the full plan saved so far, whose training took %s in all; `pcgcn reproduce --plan` lists what is left.\n\n",
		saved, total, training)
}
