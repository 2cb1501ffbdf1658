package studies

import (
	"io"
	"time"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/studies/complexity"
)

// Options configure a reproduction.
type Options struct {
	// Only lists the studies to run (see Names); empty: every study but the
	// optional ones (fidelity).
	Only []string
	// Datasets restricts each study's datasets to the registry names it
	// lists: a study whose datasets include none of them trains nothing on
	// this run (its report still renders every saved cell). A graph given
	// by path (--data) is added to every study.
	Datasets []string
	// PathsOnly runs the studies on the graphs Datasets gives by path
	// alone, not beside each study's registry datasets: what --datasets
	// naming only your own graph asks for.
	PathsOnly bool
	// Models are the models of the main table (default: every registered
	// model; in quick mode pcgcn, gcn, gat, mlp and linkx).
	Models []string
	// Splits are the standard splits to run (default 0-9).
	Splits []int
	// Quick runs 2 splits, at most 60 epochs, small label-rate and t-SNE
	// settings and small datasets, and writes everything under
	// <ResultsDir>/quick: the whole pipeline in minutes (see quick.go).
	Quick bool
	// ResultsDir holds the per-cell JSON (default "results").
	ResultsDir string
	// DocsDir is where the reports go (default "docs"): report.md,
	// results.md, fidelity.md and figures/. The hand-written parts of the
	// pages (results-discussion.md, fidelity-notes.md) are read from it,
	// also in quick mode, whose reports go to <ResultsDir>/quick.
	DocsDir string
	// Data resolves datasets.
	Data datasets.Options
	// Threads and Seed configure training; Jobs cells train at once (see
	// experiments.Runner.Jobs).
	Threads, Jobs int
	Seed          uint64
	// PresetOnly reports the main table's presets instead of selecting the
	// feature preprocessing on validation.
	PresetOnly bool
	// Refresh trains saved cells of other numerics again (see
	// experiments.Runner.Refresh).
	Refresh bool
	// Lease is how long a worker's claim on a cell lives without renewal
	// (see experiments.Runner.Lease; 0: the default).
	Lease time.Duration
	// Stop, when closed, interrupts the run: no further cell starts and the
	// splits in training save their state at the end of their epoch (see
	// experiments.Runner.Stop). nil: the run is stopped only by ending the
	// process, which loses what each split did since its last save.
	Stop <-chan struct{}
	// Metrics chooses datasets' metrics (see experiments.Runner.Metrics).
	Metrics map[string]datasets.Metric
	// Complexity configures the complexity study's measurements.
	Complexity complexity.Options
	// Progress receives progress lines (nil: quiet).
	Progress io.Writer
	// Start is when the invocation started, for the reports' wall time
	// (zero: when New is called).
	Start time.Time
}
