// Package complexity is the complexity study of the reproduction: what the
// paper's Section "Complexity" claims, measured. It times seconds per
// epoch and peak memory of full-batch PCGCN and GCN against the number of
// nodes n and against the average degree, beside the PyTorch reference. It
// trains no cells: Measure times runs in child processes (measure.go,
// child.go) and saves one record per run under results/complexity/
// (record.go), from which Render writes the study's section of
// docs/report.md (render.go, verdict.go, fit.go); Plan is its line of
// reproduce --plan (estimate.go). Package studies registers it.
package complexity

import "io"

// The study's name (reproduce --only), its help line and its section's
// title in docs/report.md.
const (
	Name  = "complexity"
	Help  = "seconds per epoch and peak memory of PCGCN and GCN against n and\nthe degree, beside the PyTorch reference (about 1 h; run it alone)"
	Title = "Complexity: time and memory against the network size (Section \"Complexity\")"
)

// Env is what the study takes from the reproduction it is part of.
type Env struct {
	// ResultsDir is the run's results directory; the records go in its
	// complexity/ directory.
	ResultsDir string
	// Quick measures the tiny grid of reproduce --quick.
	Quick bool
	// Refresh measures again the records other numerics or another
	// protocol saved.
	Refresh bool
	// Threads is each run's thread count (0: every core).
	Threads int
	// Options configure the measurements.
	Options Options
	// Progress, when not nil, receives a line per graph and run.
	Progress io.Writer
	// Figure returns where a figure of the given file name goes and the
	// link to it from docs/report.md.
	Figure func(name string) (path, link string)
}

// The quick mode's settings: the warm-up and timed epochs of a run, the
// graph sizes (average degree 20) and the average degrees (at the smallest
// size).
const (
	quickWarmup, quickEpochs = 1, 3
)

func quickNodes() []int       { return []int{2000, 4000} }
func quickDegrees() []float64 { return []float64{10, 20} }
