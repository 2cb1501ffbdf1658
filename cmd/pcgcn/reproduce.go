package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/report"
)

type reproduceFlags struct {
	only       string
	models     string
	datasets   string
	splits     string
	quick      bool
	resultsDir string
	docsDir    string
	threads    int
	seed       uint64
}

func newReproduceCmd() *cobra.Command {
	var f reproduceFlags
	cmd := &cobra.Command{
		Use:   "reproduce [--only main,...] [--models ...] [--datasets ...] [--splits 0-9] [--quick]",
		Short: "Run the paper's experiments and regenerate docs/results.md and results/*.json",
		Long: `reproduce runs the paper's studies cell by cell (a model on a dataset over the
splits), saving each finished cell atomically under --results, so that an
interrupted run resumes where it stopped. It then regenerates the Markdown
report from every saved cell and prints the total wall time.

Studies (--only): fidelity — PCGCN under each reading of the paper's open
choices (docs/fidelity.md); main — every model on every offline dataset of the paper and
the four extra heterophily benchmarks (the main table; PCGCN's row is issue 5's
results table).

--quick runs 2 splits with at most 60 epochs: the whole pipeline in minutes,
for checking, not for numbers.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runReproduce(cmd, &f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.only, "only", "main", "comma-separated studies to run: fidelity, main")
	fl.StringVar(&f.models, "models", "", "comma-separated models (default: every registered model)")
	fl.StringVar(&f.datasets, "datasets", "", "comma-separated datasets (default: the paper's offline datasets and the extra four)")
	fl.StringVar(&f.splits, "splits", "0-9", "splits to run per cell")
	fl.BoolVar(&f.quick, "quick", false, "2 splits, at most 60 epochs: a fast end-to-end check")
	fl.StringVar(&f.resultsDir, "results", "results", "directory of the per-cell JSON results")
	fl.StringVar(&f.docsDir, "docs", "docs", "directory the Markdown report is written to")
	fl.IntVar(&f.threads, "threads", 0, "goroutines for the kernels (0: all cores)")
	fl.Uint64Var(&f.seed, "seed", 42, "base random seed")
	return cmd
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(strings.ToLower(p)); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func runReproduce(cmd *cobra.Command, f *reproduceFlags) error {
	start := time.Now()
	reg := models.NewRegistry()
	modelNames := splitList(f.models)
	if len(modelNames) == 0 {
		modelNames = reg.Names()
	}
	for _, m := range modelNames {
		if _, err := reg.Get(m); err != nil {
			return err
		}
	}
	dsNames := splitList(f.datasets)
	if len(dsNames) == 0 {
		dsNames = append(experiments.PaperDatasets(), experiments.ExtraDatasets()...)
	}
	for _, d := range dsNames {
		if _, err := datasets.Lookup(d); err != nil {
			return err
		}
	}
	splits, err := parseSplits(f.splits, 10)
	if err != nil {
		return err
	}
	dataDir, _ := cmd.Flags().GetString("data-dir")
	rn := &experiments.Runner{
		Dir: f.resultsDir, Data: datasets.Options{DataDir: dataDir, Progress: cmd.ErrOrStderr()},
		Threads: f.threads, Seed: f.seed, Progress: cmd.ErrOrStderr(),
	}
	if f.quick {
		splits = splits[:min(2, len(splits))]
		rn.Epochs, rn.Patience = 60, 30
		rn.Dir = filepath.Join(f.resultsDir, "quick")
	}
	for _, study := range splitList(f.only) {
		switch study {
		case "main":
			cells := experiments.MainCells(modelNames, dsNames, splits)
			if _, err := rn.Run(cells); err != nil {
				return err
			}
			if err := writeResultsReport(rn, f, time.Since(start), reg.Names()); err != nil {
				return err
			}
		case "fidelity":
			fds := splitList(f.datasets)
			if len(fds) == 0 {
				fds = experiments.PaperDatasets()
			}
			rs, err := rn.Run(experiments.FidelityCells(fds, splits))
			if err != nil {
				return err
			}
			if err := writeFidelityReport(rn, f, time.Since(start), rs); err != nil {
				return err
			}
		default:
			return fmt.Errorf("--only: unknown study %q (valid: main, fidelity)", study)
		}
	}
	fmt.Fprintf(cmd.OutOrStdout(), "reproduce finished in %s; report in %s\n", time.Since(start).Round(time.Second), filepath.Join(f.docsDir, "results.md"))
	return nil
}

// writeResultsReport gathers every saved main-table cell (not only this
// run's) and writes results/main.json and docs/results.md.
func writeResultsReport(rn *experiments.Runner, f *reproduceFlags, wall time.Duration, allModels []string) error {
	all := append(experiments.PaperDatasets(), experiments.ExtraDatasets()...)
	splits := experiments.AllSplits(10)
	if f.quick {
		splits = splits[:2]
	}
	var rs []*experiments.Result
	var compute float64
	for _, c := range experiments.MainCells(allModels, all, splits) {
		if r := rn.Load(c); r != nil {
			rs = append(rs, r)
			compute += r.Seconds
		}
	}
	b, err := json.MarshalIndent(rs, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(rn.Dir, 0o755); err != nil {
		return err
	}
	if err := experiments.WriteFileAtomic(filepath.Join(rn.Dir, "main.json"), append(b, '\n')); err != nil {
		return err
	}
	var speed []report.SpeedRow
	if sb, err := os.ReadFile(filepath.Join(f.resultsDir, "speed.json")); err == nil {
		if err := json.Unmarshal(sb, &speed); err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(f.resultsDir, "speed.json"), err)
		}
	}
	discussion, _ := os.ReadFile(filepath.Join(f.docsDir, "results-discussion.md"))
	md := report.ResultsPage(runInfo(f, "main", wall, len(rs), compute), rs, allModels, speed, string(discussion))
	out := filepath.Join(f.docsDir, "results.md")
	if f.quick {
		out = filepath.Join(rn.Dir, "results.md")
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	return experiments.WriteFileAtomic(out, []byte(md))
}

// writeFidelityReport writes docs/fidelity.md from every saved fidelity cell
// of the paper's datasets.
func writeFidelityReport(rn *experiments.Runner, f *reproduceFlags, wall time.Duration, _ []*experiments.Result) error {
	splits := experiments.AllSplits(10)
	if f.quick {
		splits = splits[:2]
	}
	var rs []*experiments.Result
	var compute float64
	for _, c := range experiments.FidelityCells(experiments.PaperDatasets(), splits) {
		if r := rn.Load(c); r != nil {
			rs = append(rs, r)
			compute += r.Seconds
		}
	}
	notes, _ := os.ReadFile(filepath.Join(f.docsDir, "fidelity-notes.md"))
	md := report.FidelityPage(runInfo(f, "fidelity", wall, len(rs), compute), rs, experiments.PaperDatasets(), string(notes))
	out := filepath.Join(f.docsDir, "fidelity.md")
	if f.quick {
		out = filepath.Join(rn.Dir, "fidelity.md")
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	return experiments.WriteFileAtomic(out, []byte(md))
}

// runInfo describes this invocation for a report header.
func runInfo(f *reproduceFlags, study string, wall time.Duration, cells int, compute float64) report.Run {
	cmd := "pcgcn reproduce --only " + study
	if f.quick {
		cmd += " --quick"
	}
	return report.Run{
		Command:  cmd,
		Machine:  fmt.Sprintf("%d cores (%s), %s/%s", runtime.NumCPU(), cpuModel(), runtime.GOOS, runtime.GOARCH),
		WallTime: fmt.Sprintf("this invocation %s; total training time of the %d saved cells %s", wall.Round(time.Second), cells, (time.Duration(compute) * time.Second).Round(time.Second)),
	}
}

// cpuModel reads the CPU model name on Linux ("unknown" elsewhere).
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}
