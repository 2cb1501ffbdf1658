package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/studies"
	"github.com/pcgcn/pcgcn/tensor"
)

// reproduceFlags are reproduce's flags: the runner's and the scores', what
// to reproduce, the mode, and an own graph's.
type reproduceFlags struct {
	runnerFlags
	scoreFlags
	only, models, datasets, splits string
	quick, presetOnly, refresh     bool
	quiet, offline                 bool
	docsDir                        string
	threads                        int
	seed                           uint64
	plan, render                   bool
	workers                        int
	data                           string
	user                           userGraphFlags
	complexity                     complexityFlags
}

func newReproduceCmd() *cobra.Command {
	var f reproduceFlags
	var prof cpuProfileFlag
	cmd := &cobra.Command{
		Use:   "reproduce [--only STUDY,...] [--datasets ...] [--splits 0-9] [--quick]",
		Short: "Run the paper's experiments and regenerate the reports (docs/report.md, docs/results.md)",
		Long: `reproduce runs the paper's studies cell by cell (a model on a dataset over the
splits), saving each finished cell atomically as JSON under --results, so that
an interrupted run resumes where it stopped, with progress and an estimate of
the time left. It then regenerates the reports from every saved cell and prints
the total wall time.

A saved result only grows: a cell's file holds every split trained so far, a
run asking for some of them (--splits 0) reuses them and trains nothing, and
one asking for splits it lacks trains only those and adds them. --datasets,
--models and --splits choose what to train, not what the reports show: the
reports render every saved cell of the full plan (splits 0-9; a cell saved
only on this run's splits, from those). Another --seed keeps its cells and its
reports apart, in <results>/seed<N>/.

` + studies.Help() + `

docs/report.md has a section for each of the paper's studies, whichever were
run; the others write pages of their own.

--quick runs 2 splits with at most 60 epochs on the small WebKB graphs and
writes everything under <results>/quick: the whole pipeline in minutes, for
checking, not for numbers.

On a cluster (deploy/slurm/README.md): start any number of workers on one
shared --results directory with --worker (or a static --shard I/N, --shard
slurm in a job array); each trains cells until none is left and renders
nothing. --plan shows what is saved, claimed by a live worker and left, and
--plan --workers N estimates the wall time with N workers. Then one
'pcgcn reproduce --render' (same plan flags) writes the reports, training
nothing.

The complexity study (--only complexity) times runs instead of training
cells: a plain run takes them, one child process at a time, never --worker;
run it alone on a quiet machine.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return prof.run(func() error { return runReproduce(cmd, &f) })
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.only, "only", "", "comma-separated studies to run (listed above; default: all but the optional ones)")
	fl.StringVar(&f.models, "models", "", "comma-separated models of the main table (default: every registered model)")
	fl.StringVar(&f.datasets, "datasets", "", "comma-separated datasets to restrict the studies to: a study using none of them trains nothing this run; your own graph, by path, runs beside them, and alone when --datasets names only such paths (--data PATH --datasets PATH: the studies on your graph only)")
	fl.StringVar(&f.data, "data", "", "run the studies on your own graph (docs/data-format.md) too; studies that compare with a paper number show ours alone")
	registerSplits(cmd, &f.splits)
	fl.BoolVar(&f.quick, "quick", false, "2 splits, at most 60 epochs, small graphs: a fast end-to-end check")
	fl.StringVar(&f.docsDir, "docs", "docs", "directory the Markdown reports and figures are written to (--quick and a --seed other than 42 write theirs beside their cells instead)")
	registerThreads(cmd, &f.threads)
	registerSeed(cmd, &f.seed)
	registerQuiet(cmd, &f.quiet)
	fl.BoolVar(&f.offline, "offline", false, offlineHelp)
	fl.BoolVar(&f.plan, "plan", false, "train nothing: list, per study, the cells saved (and how many a saved cell of more splits answers) and the splits left (and how many cells they extend), with an estimate of their time from the models' rates in the saved cells")
	fl.BoolVar(&f.refresh, "refresh", false, "also train again the saved cells computed by other numerics than this build's, or saved before cells recorded theirs (--plan counts them as stale; README, Reproducibility), so that every number comes from this build")
	fl.BoolVar(&f.render, "render", false, "train nothing: write the reports from the saved cells (after workers trained the plan); a study whose cells are not all saved says so in its section")
	fl.IntVar(&f.workers, "workers", 0, "with --plan: also estimate the wall time of what is left with N workers (cells shared out longest first)")
	f.runnerFlags.register(cmd, "directory of the per-cell JSON results")
	f.scoreFlags.register(cmd, "with --data: "+metricHelp, "print the result as JSON on stdout (progress stays on stderr): with --plan the plan (per study and in total, with this build's numerics), else a summary of the run (wall time, directories)")
	f.user.register(cmd)
	f.complexity.register(cmd)
	registerCompletion(cmd, "only", completeList(studyNames))
	registerCompletion(cmd, "models", completeList(modelNames))
	registerCompletion(cmd, "datasets", completeList(datasetNames))
	fl.BoolVar(&f.presetOnly, "preset-only", false, "main table: report each model's preset as is, instead of also training it with feature row normalisation flipped and keeping the candidate with the better validation metric (accuracy, or ROC AUC on a binary graph)")
	prof.register(cmd)
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

// runReproduce maps the flags to studies.Options and runs, plans, renders or
// works on the reproduction they describe.
func runReproduce(cmd *cobra.Command, f *reproduceFlags) error {
	start := time.Now()
	if err := f.checkModes(); err != nil {
		return err
	}
	note := &reproduceNote{dir: f.resultsDir, trains: !f.plan && !f.render}
	// a worker releases its claims on SIGINT and SIGTERM and says so
	// itself, and the complexity study kills its child and removes its
	// graph: neither may be cut short by an exit
	var stop <-chan struct{}
	if !f.work.on() && !slices.Contains(splitList(f.only), "complexity") {
		var finish func()
		stop, finish = onInterruptSaving(cmd.ErrOrStderr(), note.say)
		defer finish()
	}
	opt, err := f.options(cmd, start)
	if err != nil {
		return err
	}
	opt.Stop = stop
	r, err := studies.New(opt)
	if err != nil {
		if _, ok := errors.AsType[*studies.UnknownStudyError](err); ok {
			return fmt.Errorf("--only: %w", err)
		}
		return err
	}
	note.setDir(r.ResultsDir())
	if f.data != "" && strings.TrimSpace(f.datasets) == "" && !f.quick && !f.plan && !f.render && !f.quiet {
		// --data adds the graph beside every study's datasets: say how
		// to run it alone before days of training on the benchmarks begin
		fmt.Fprintf(cmd.ErrOrStderr(), "note: --data adds %s beside each study's datasets; --datasets %s runs the studies on it alone (--plan shows the work first)\n", f.data, f.data)
	}
	out := cmd.OutOrStdout()
	switch {
	case f.work.on():
		wo, err := f.work.options()
		if err != nil {
			return err
		}
		ctx, stop := signalContext(cmd)
		defer stop()
		if err := r.Work(ctx, wo); err != nil {
			return err
		}
		fmt.Fprintf(out, "worker finished in %s: no cell of the plan is left to it (render the reports with --render)\n",
			studies.FormatDuration(time.Since(start)))
		return nil
	case f.plan && f.jsonOut:
		return json.NewEncoder(out).Encode(planJSON(r.Plan(), f.workers))
	case f.plan:
		printPlan(out, r.Plan(), f.workers)
		return nil
	case f.render:
		err = r.Render()
	default:
		err = r.Run()
	}
	if err != nil {
		return err
	}
	if f.jsonOut {
		return json.NewEncoder(out).Encode(reproduceSummary{
			WallSeconds: time.Since(start).Seconds(), Docs: r.DocsDir(), Results: r.ResultsDir(), Numerics: tensor.Numerics()})
	}
	fmt.Fprintf(out, "reproduce finished in %s; reports in %s\n", studies.FormatDuration(time.Since(start)), r.DocsDir())
	return nil
}

// checkModes refuses flags that contradict each other before anything is
// loaded.
func (f *reproduceFlags) checkModes() error {
	modes := 0
	for _, on := range []bool{f.plan, f.render, f.work.on()} {
		if on {
			modes++
		}
	}
	if modes > 1 {
		return fmt.Errorf("give at most one of --plan, --render and --worker/--shard")
	}
	switch {
	case f.workers < 0:
		return fmt.Errorf("--workers %d: give a positive number of workers", f.workers)
	case f.workers > 0 && !f.plan:
		return fmt.Errorf("--workers %d only estimates the wall time of a plan: add --plan (to train with several workers, start reproduce --worker processes)", f.workers)
	}
	return nil
}

// options maps the flags to the reproduction's options.
func (f *reproduceFlags) options(cmd *cobra.Command, start time.Time) (studies.Options, error) {
	dsNames, pathsOnly, err := f.datasetList()
	if err != nil {
		return studies.Options{}, err
	}
	splits, err := parseSplits(f.cellSplits(), 10)
	if err != nil {
		return studies.Options{}, err
	}
	reg := models.NewRegistry()
	for _, m := range splitList(f.models) {
		if _, err := reg.Get(m); err != nil {
			return studies.Options{}, fmt.Errorf("--models: %w", err)
		}
	}
	dataDir, _ := cmd.Flags().GetString("data-dir")
	progress := progressWriter(cmd, f.quiet)
	data := datasets.Options{DataDir: dataDir, Offline: f.offline, Progress: progress}
	// a mistyped --data-dir or $PCGCN_DATA is one line now, not every
	// dataset failing later (or, with --plan, every saved cell unchecked)
	if err := data.CheckDataDir(); err != nil {
		return studies.Options{}, err
	}
	metrics, err := reproduceUserGraph(cmd, f, &data)
	if err != nil {
		return studies.Options{}, err
	}
	threads, err := threadsPerJob(f.threads, f.jobs)
	if err != nil {
		return studies.Options{}, err
	}
	complexity, err := f.complexity.options(dataDir)
	if err != nil {
		return studies.Options{}, err
	}
	return studies.Options{Complexity: complexity, Only: splitList(f.only), Datasets: dsNames, PathsOnly: pathsOnly, Models: splitList(f.models), Splits: splits,
		Quick: f.quick, ResultsDir: f.resultsDir, DocsDir: f.docsDir, Data: data, Threads: threads, Jobs: f.jobs, Seed: f.seed,
		PresetOnly: f.presetOnly, Refresh: f.refresh, Lease: f.work.lease, Metrics: metrics, Progress: progress, Start: start}, nil
}

// datasetList returns the datasets of --datasets with the --data graph
// added (once: --datasets may name it too), and whether --datasets names
// graphs by path only, which then run alone instead of beside each study's
// registry datasets.
func (f *reproduceFlags) datasetList() (names []string, pathsOnly bool, err error) {
	var given []string // registry names in lower case, paths as given
	for _, d := range strings.Split(f.datasets, ",") {
		if d = strings.TrimSpace(d); d == "" {
			continue
		}
		if _, err := datasets.Lookup(strings.ToLower(d)); err == nil {
			d = strings.ToLower(d)
		} else if strings.ContainsAny(d, `/\`) || strings.HasPrefix(d, ".") {
			if _, serr := os.Stat(d); serr != nil { // a path, not a misspelt name
				return nil, false, fmt.Errorf("--datasets: %w", serr)
			}
		} else if !datasets.IsPath(d) { // neither a registry name nor a graph here
			_, err := datasets.Lookup(d) // the error names it as typed
			return nil, false, fmt.Errorf("--datasets: %w", err)
		}
		given = append(given, d)
	}
	var own os.FileInfo
	if f.data != "" {
		if own, err = os.Stat(f.data); err != nil {
			return nil, false, fmt.Errorf("--data: %w", err)
		}
	}
	pathsOnly = len(given) > 0
	for _, d := range given {
		if !datasets.IsPath(d) {
			pathsOnly = false
		} else if fi, err := os.Stat(d); err == nil && own != nil && os.SameFile(fi, own) {
			continue
		}
		names = append(names, d)
	}
	if f.data != "" {
		names = append(names, f.data)
	}
	return names, pathsOnly, nil
}

// cellSplits is --splits as the studies read it: all is the paper
// datasets' 10 splits, 0-9, every study's cells having the same splits.
func (f *reproduceFlags) cellSplits() string {
	if t := strings.TrimSpace(f.splits); t == "" || strings.EqualFold(t, "all") {
		return "0-9"
	}
	return f.splits
}

// reproduceUserGraph applies the flags for an own graph (--data) to data:
// random splits for a graph without splits, label remapping. It loads the
// graph once to check them and print its label warnings, and returns its
// metric when --metric chooses one. Without --data those flags are an
// error: the registry datasets keep their splits, labels and metrics.
func reproduceUserGraph(cmd *cobra.Command, f *reproduceFlags, data *datasets.Options) (map[string]datasets.Metric, error) {
	if f.data == "" {
		for _, name := range []string{"split-ratio", "num-splits", "remap-labels", "metric"} {
			if cmd.Flags().Changed(name) {
				return nil, fmt.Errorf("--%s applies to your own graph: give --data PATH", name)
			}
		}
		return nil, nil
	}
	if err := f.user.apply(cmd, data); err != nil {
		return nil, err
	}
	g, err := datasets.LoadPathWith(f.data, *data)
	if err != nil {
		return nil, fmt.Errorf("--data %s: %w", f.data, err)
	}
	if err := f.user.checkOwnSplits(cmd, g); err != nil {
		return nil, err
	}
	if !f.quick { // --quick runs the first two of --splits
		if _, err := parseSplits(f.cellSplits(), len(g.Splits)); err != nil {
			return nil, fmt.Errorf("--data %s: %w", f.data, err)
		}
	}
	warn(cmd.ErrOrStderr(), g.Warnings())
	if f.metric == "" {
		return nil, nil
	}
	m, err := resolveMetric(f.metric, f.data, g)
	if err != nil {
		return nil, err
	}
	return map[string]datasets.Metric{f.data: m}, nil
}

// reproduceSummary is the --json output of a run.
type reproduceSummary struct {
	WallSeconds float64 `json:"wall_seconds"`
	Docs        string  `json:"docs"`
	Results     string  `json:"results"`
	Numerics    string  `json:"numerics"`
}
