package studies

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/train"
)

// registry lists every study, in the order of docs/report.md and of
// reproduce's --help. A new study is one file, which defines its study, and
// one line here.
func registry() []study {
	return []study{
		statsStudy(),
		mainTableStudy(),
		homophilyStudy(),
		tsneStudy(),
		labelDistanceStudy(),
		labelRateStudy(),
		missingClassStudy(),
		ablationStudy(),
		partialControlStudy(),
		matchingStudy(),
		resultsPageStudy(),
		fidelityStudy(),
		complexityStudy(),
		minibatchStudy(),
		fairStudy(),
		anchorsStudy(),
	}
}

// study is one study of the reproduction, whole: the cells it needs, the
// section of docs/report.md it renders with its verdict, or the page of its
// own it writes, and the hooks it gives the runner.
type study struct {
	// name selects the study (Options.Only, reproduce --only).
	name string
	// help describes the study in reproduce's --help; a line break starts
	// an indented line.
	help string
	// optional marks a study left out of the default set (fidelity).
	optional bool
	// with names the study this one is selected along with (the results
	// page goes with the main table).
	with string
	// cells lists the cells the study needs (nil: none).
	cells func(p *plan) []experiments.Cell
	// title heads the study's section of docs/report.md, which section
	// renders from the saved cells (nil for a study without one).
	title   string
	section func(p *plan, w io.Writer) error
	// page writes a page of the study's own from the saved cells.
	page func(p *plan) error
	// candidates lists the configurations tried for each of the study's
	// cells, the cell first (see experiments.Selector); nil: the cell alone.
	candidates func(p *plan, c experiments.Cell, spec models.Spec, cfg models.Config) []experiments.Cell
	// extras measures more on every trained split of every cell, whichever
	// study lists it (see experiments.Runner.Extras).
	extras func(c experiments.Cell, r *train.Result) map[string]float64
	// prepare adapts the graph and training options of every cell to the
	// study's settings, when the cell has them (see Cell.Opts and
	// experiments.Runner.Prepare): each study acts on its own settings.
	prepare func(p *plan, c experiments.Cell, g *graph.Graph, opt *train.Options) (*graph.Graph, error)
	// outputs keeps in sr what the study's settings ask of each trained
	// split of every cell that has them (see experiments.Runner.Outputs).
	outputs func(p *plan, c experiments.Cell, r *train.Result, sr *experiments.SplitResult) error
	// measure does the study's work other than training cells (the
	// complexity study's timed runs), skipping what is saved: Run calls it
	// for a selected study after the cells are trained and before the
	// reports are written; Render, Plan and Work never do. ctx cancels it.
	measure func(ctx context.Context, p *plan) error
	// work is measure for a worker (reproduce --worker): the study's work
	// other than listed cells, shared with other workers through the
	// claims; Work calls it after the cells (nil: nothing more).
	work func(ctx context.Context, p *plan, wo experiments.WorkOptions) error
	// planned reports measure's work for Plan: the measurements saved and
	// left, with an estimate of the time left (nil: the study's cells
	// alone).
	planned func(p *plan) experiments.PlanEntry
}

// Names lists every study, in report order; Options.Only takes them.
func Names() []string {
	var out []string
	for _, s := range registry() {
		out = append(out, s.name)
	}
	return out
}

// Help lists the studies for reproduce's --help: each name with its
// description, and which are left out of the default set.
func Help() string {
	var b strings.Builder
	var optional []string
	for _, s := range registry() {
		if s.optional {
			optional = append(optional, s.name)
		}
	}
	fmt.Fprintf(&b, "Studies (--only, comma-separated; default all but %s):\n", strings.Join(optional, ", "))
	for _, s := range registry() {
		fmt.Fprintf(&b, "  %-10s %s\n", s.name, strings.ReplaceAll(s.help, "\n", "\n"+strings.Repeat(" ", 13)))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// UnknownStudyError is the error for a study name that is not in the
// registry (see Names).
type UnknownStudyError struct {
	// Name is the name given.
	Name string
}

// Error names the study and the valid names.
func (e *UnknownStudyError) Error() string {
	return fmt.Sprintf("unknown study %q (valid: %s)", e.Name, strings.Join(Names(), ", "))
}

// selectStudies returns the studies of all (the registry) named in only,
// with those that go along with them, in all's order; with none named,
// every study but the optional ones.
func selectStudies(all []study, only []string) ([]study, error) {
	for _, name := range only {
		if !slices.ContainsFunc(all, func(s study) bool { return s.name == name }) {
			return nil, &UnknownStudyError{Name: name}
		}
	}
	named := func(s study) bool { return slices.Contains(only, s.name) }
	var out []study
	for _, s := range all {
		switch {
		case len(only) == 0 && !s.optional, named(s), s.with != "" && slices.Contains(only, s.with):
			out = append(out, s)
		}
	}
	return out, nil
}
