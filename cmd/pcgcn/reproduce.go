package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/report"
	"github.com/pcgcn/pcgcn/studies"
	"github.com/pcgcn/pcgcn/tensor"
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
	jobs       int
	seed       uint64
	data       string
	presetOnly bool
	refresh    bool
	plan       bool
	jsonOut    bool
	render     bool
	workers    int
	work       workerFlags
	user       userGraphFlags
	metric     string
}

func newReproduceCmd() *cobra.Command {
	var f reproduceFlags
	cmd := &cobra.Command{
		Use:   "reproduce [--only STUDY,...] [--datasets ...] [--splits 0-9] [--quick]",
		Short: "Run the paper's experiments and regenerate the reports (docs/report.md, docs/results.md)",
		Long: `reproduce runs the paper's studies cell by cell (a model on a dataset over the
splits), saving each finished cell atomically as JSON under --results, so that
an interrupted run resumes where it stopped, with progress and an estimate of
the time left. It then regenerates the reports from every saved cell and prints
the total wall time.

Studies (--only, comma-separated; default all of the paper's):
  stats      dataset statistics against the paper's table
  main       every model on every offline dataset of the paper (the main
             table); also the four extra heterophily benchmarks with PCGCN,
             MLP, GCN, GPRGNN and LINKX (every model with --datasets),
             written to docs/results.md.
             Each model is trained with its preset and with feature row
             normalisation flipped; the table keeps the candidate with the
             better mean validation accuracy (--preset-only: presets only)
  hete       accuracy by node-homophily bin (PCGCN, GCN, GAT)
  tsne       t-SNE of last-layer embeddings with silhouette scores
  sld        accuracy by shortest label distance (PCGCN, GCN)
  labelrate  70 down to 2 training labels per class, random splits
  missing    one class's training labels removed
  ablation   PCGCN without each component
  partial    10% of nodes uncontrolled (random, min-degree, max-degree)
  matching   a fraction of unlabelled nodes pinned to their class; a
             second series pins the training nodes to their labels too
  fidelity   PCGCN under each reading of the paper's open choices
             (docs/fidelity.md; not part of the default set)

docs/report.md has one section per study; docs/results.md the main table, the
extra benchmarks and the speed comparison (results/speed.json, written by
scripts/bench_vs_pytorch.sh).

--quick runs 2 splits with at most 60 epochs on the small WebKB graphs and
writes everything under <results>/quick: the whole pipeline in minutes, for
checking, not for numbers.

On a cluster (deploy/slurm/README.md): start any number of workers on one
shared --results directory with --worker (or a static --shard I/N, --shard
slurm in a job array); each trains cells until none is left and renders
nothing. --plan shows what is saved, claimed by a live worker and left, and
--plan --workers N estimates the wall time with N workers. Then one
'pcgcn reproduce --render' (same plan flags) writes the reports, training
nothing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runReproduce(cmd, &f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.only, "only", "", "comma-separated studies to run (default: all but fidelity)")
	fl.StringVar(&f.models, "models", "", "comma-separated models of the main table (default: every registered model)")
	fl.StringVar(&f.datasets, "datasets", "", "comma-separated datasets to restrict the studies to")
	fl.StringVar(&f.data, "data", "", "run the studies on your own graph (docs/data-format.md) too; studies that compare with a paper number show ours alone")
	fl.StringVar(&f.splits, "splits", "0-9", "splits to run per cell")
	fl.BoolVar(&f.quick, "quick", false, "2 splits, at most 60 epochs, small graphs: a fast end-to-end check")
	fl.StringVar(&f.resultsDir, "results", "results", "directory of the per-cell JSON results")
	fl.StringVar(&f.docsDir, "docs", "docs", "directory the Markdown reports and figures are written to")
	fl.IntVar(&f.threads, "threads", 0, "goroutines for the kernels of each cell: 0 divides the cores among the --jobs; at most 4 × the cores, more is refused")
	fl.IntVar(&f.jobs, "jobs", 1, jobsHelp)
	fl.Uint64Var(&f.seed, "seed", 42, "base random seed")
	fl.BoolVar(&f.plan, "plan", false, "train nothing: list, per study, the cells saved and the splits left, with an estimate of their time from the models' rates in the saved cells")
	fl.BoolVar(&f.refresh, "refresh", false, "also train again the saved cells computed by other numerics than this build's, or saved before cells recorded theirs (--plan counts them as stale; README, Reproducibility), so that every number comes from this build")
	fl.BoolVar(&f.jsonOut, "json", false, "print the result as JSON on stdout (progress stays on stderr): with --plan the plan (per study and in total, with this build's numerics), else a summary of the run (wall time, directories)")
	fl.BoolVar(&f.render, "render", false, "train nothing: write the reports from the saved cells (after workers trained the plan); a study whose cells are not all saved says so in its section")
	fl.IntVar(&f.workers, "workers", 0, "with --plan: also estimate the wall time of what is left with N workers (cells shared out longest first)")
	f.work.register(cmd)
	f.user.register(cmd)
	fl.StringVar(&f.metric, "metric", "", "with --data: "+metricHelp)
	fl.BoolVar(&f.presetOnly, "preset-only", false, "main table: report each model's preset as is, instead of also training it with feature row normalisation flipped and keeping the candidate with the better validation accuracy")
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
	for _, m := range modelNames {
		if _, err := reg.Get(m); err != nil {
			return err
		}
	}
	dsNames := splitList(f.datasets)
	for _, d := range dsNames {
		if _, err := datasets.Lookup(d); err != nil {
			return err
		}
	}
	if f.data != "" {
		if _, err := os.Stat(f.data); err != nil {
			return fmt.Errorf("--data: %w", err)
		}
		dsNames = append(dsNames, f.data)
	}
	splits, err := parseSplits(f.splits, 10)
	if err != nil {
		return err
	}
	only := splitList(f.only)
	valid := append(studies.Names(), "fidelity")
	for _, s := range only {
		if !slices.Contains(valid, s) {
			return fmt.Errorf("--only: unknown study %q (valid: %s)", s, strings.Join(valid, ", "))
		}
	}
	dataDir, _ := cmd.Flags().GetString("data-dir")
	data := datasets.Options{DataDir: dataDir, Progress: cmd.ErrOrStderr()}
	metrics, err := reproduceUserGraph(cmd, f, &data)
	if err != nil {
		return err
	}
	docs := f.docsDir
	if f.quick {
		docs = filepath.Join(f.resultsDir, "quick")
	}
	if f.threads, err = threadsPerJob(f.threads, f.jobs); err != nil {
		return err
	}
	rn := &experiments.Runner{Dir: f.resultsDir, Data: data, Threads: f.threads, Jobs: f.jobs, Seed: f.seed, Progress: cmd.ErrOrStderr(),
		Extras: experiments.MatchingExtras, PresetOnly: f.presetOnly, Refresh: f.refresh, Metrics: metrics}
	if f.quick {
		splits = splits[:min(2, len(splits))]
		rn.Epochs, rn.Patience = 60, 30
		rn.Dir = filepath.Join(f.resultsDir, "quick")
	}

	modes := 0
	for _, on := range []bool{f.plan, f.render, f.work.on()} {
		if on {
			modes++
		}
	}
	if modes > 1 {
		return fmt.Errorf("give at most one of --plan, --render and --worker/--shard")
	}
	if f.workers < 0 || f.workers > 0 && !f.plan {
		return fmt.Errorf("--workers %d: give a positive N, with --plan", f.workers)
	}
	rn.Lease = f.work.lease
	training := !f.plan && !f.render

	// the cells outside the paper's studies: the fidelity grid and the main
	// table over the extra datasets
	var fidCells, mainCells []experiments.Cell
	if slices.Contains(only, "fidelity") {
		fds := dsNames
		if len(fds) == 0 {
			fds = experiments.PaperDatasets()
		}
		fidCells = experiments.FidelityCells(fds, splits)
	}
	var paperStudies []string
	for _, s := range only {
		if s != "fidelity" {
			paperStudies = append(paperStudies, s)
		}
	}
	doStudies := len(only) == 0 || len(paperStudies) > 0
	doMain := doStudies && (len(only) == 0 || slices.Contains(only, "main"))
	if doMain {
		// the results page: the main table over the paper's and the extra
		// datasets (quick mode: the small graphs only)
		mds := dsNames
		if len(mds) == 0 && !f.quick {
			mds = append(experiments.PaperDatasets(), experiments.ExtraDatasets()...)
		}
		if len(mds) == 0 {
			mds = []string{"cornell", "texas", "wisconsin"}
		}
		mm := modelNames
		if len(mm) == 0 && f.quick {
			mm = []string{"pcgcn", "gcn", "gat", "mlp", "linkx"}
		} else if len(mm) == 0 {
			mm = reg.Names()
		}
		mainCells = experiments.MainCells(mm, mds, splits)
		if len(dsNames) == 0 && len(modelNames) == 0 && !f.quick {
			// by default the extra benchmarks get a few models only
			mainCells = append(experiments.MainCells(mm, experiments.PaperDatasets(), splits),
				experiments.MainCells(experiments.ExtraModels(), experiments.ExtraDatasets(), splits)...)
		}
	}
	opt := studies.Options{Only: paperStudies, Datasets: dsNames, Models: modelNames, Splits: splits,
		Quick: f.quick, ResultsDir: f.resultsDir, ReportPath: filepath.Join(docs, "report.md"), Data: data,
		Threads: f.threads, Jobs: f.jobs, Seed: f.seed, Progress: cmd.ErrOrStderr(), PresetOnly: f.presetOnly, Refresh: f.refresh,
		Lease: f.work.lease, Metrics: metrics}

	if f.work.on() {
		wo, err := f.work.options()
		if err != nil {
			return err
		}
		ctx, stop := signalContext(cmd)
		defer stop()
		extra := append(fidCells, mainCells...)
		if doStudies {
			err = studies.Work(ctx, opt, extra, wo)
		} else {
			err = rn.Work(ctx, extra, wo)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(cmd.OutOrStdout(), "worker finished in %s: no cell of the plan is left to it (render the reports with --render)\n",
			formatDuration(time.Since(start)))
		return nil
	}

	var plan []experiments.PlanEntry
	if fidCells != nil {
		switch {
		case f.plan:
			plan = append(plan, rn.Plan(fidCells)...)
		case training:
			if _, err := rn.Run(fidCells); err != nil {
				return err
			}
		}
		if !f.plan {
			if err := writeFidelityReport(rn, docs, splits, time.Since(start)); err != nil {
				return err
			}
		}
	}
	if doStudies {
		if doMain {
			switch {
			case f.plan:
				plan = append(plan, rn.Plan(mainCells)...)
			default:
				if training {
					if _, err := rn.Run(mainCells); err != nil {
						return err
					}
				}
				// the page shows every saved cell, not only this invocation's models
				if err := writeResultsReport(rn, f, docs, splits, time.Since(start), reg.Names()); err != nil {
					return err
				}
			}
		}
		switch {
		case f.plan:
			sp, err := studies.Plan(opt)
			if err != nil {
				return err
			}
			for _, e := range sp {
				// the main table was planned above over more datasets
				if e.Study != "main" || !slices.ContainsFunc(plan, func(p experiments.PlanEntry) bool { return p.Study == "main" }) {
					plan = append(plan, e)
				}
			}
		case f.render:
			if err := studies.Render(opt); err != nil {
				return err
			}
		default:
			if err := studies.Run(opt); err != nil {
				return err
			}
		}
	}
	switch {
	case f.plan && f.jsonOut:
		return json.NewEncoder(cmd.OutOrStdout()).Encode(planJSON(plan, f.workers))
	case f.plan:
		printPlan(cmd.OutOrStdout(), plan, f.workers)
	case f.jsonOut:
		return json.NewEncoder(cmd.OutOrStdout()).Encode(reproduceSummary{
			WallSeconds: time.Since(start).Seconds(), Docs: docs, Results: rn.Dir, Numerics: tensor.Numerics()})
	default:
		fmt.Fprintf(cmd.OutOrStdout(), "reproduce finished in %s; reports in %s\n", formatDuration(time.Since(start)), docs)
	}
	return nil
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
		if _, err := parseSplits(f.splits, len(g.Splits)); err != nil {
			return nil, fmt.Errorf("--data %s: %w", f.data, err)
		}
	}
	warn(cmd.ErrOrStderr(), g.LabelWarnings())
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

// planOutput is the --plan --json output: the entries of printPlan's table
// and their total.
type planOutput struct {
	Numerics string                  `json:"numerics"`
	Studies  []experiments.PlanEntry `json:"studies"`
	Total    experiments.PlanEntry   `json:"total"`
	// Workers and WorkersSeconds (with --workers N): the estimated wall time
	// of what is left with N workers, cells shared out longest first.
	Workers        int     `json:"workers,omitempty"`
	WorkersSeconds float64 `json:"workers_estimated_seconds,omitempty"`
}

func planJSON(plan []experiments.PlanEntry, workers int) planOutput {
	out := planOutput{Numerics: tensor.Numerics(), Studies: plan, Total: experiments.PlanEntry{Study: "total"}}
	if out.Studies == nil {
		out.Studies = []experiments.PlanEntry{}
	}
	for _, e := range plan {
		out.Total.Cells += e.Cells
		out.Total.Done += e.Done
		out.Total.Stale += e.Stale
		out.Total.Claimed += e.Claimed
		out.Total.Splits += e.Splits
		out.Total.EstSeconds += e.EstSeconds
		out.Total.Costs = append(out.Total.Costs, e.Costs...)
	}
	if workers > 0 {
		out.Workers, out.WorkersSeconds = workers, experiments.Makespan(out.Total.Costs, workers)
	}
	return out
}

// writeResultsReport gathers every saved main-table cell of the listed models
// (not only this run's) and writes results/main.json and docs/results.md.
func writeResultsReport(rn *experiments.Runner, f *reproduceFlags, docs string, splits []int, wall time.Duration, mm []string) error {
	all := append(experiments.PaperDatasets(), experiments.ExtraDatasets()...)
	var rs []*experiments.Result
	var compute float64
	for _, c := range experiments.MainCells(mm, all, splits) {
		if r := rn.Load(c); r != nil {
			rs = append(rs, r)
		}
		for _, k := range rn.Candidates(c) { // every candidate's training time
			if r := rn.LoadExact(k); r != nil {
				compute += r.Seconds
			}
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
	modelSpeed, err := report.ReadModelSpeed(filepath.Join(f.resultsDir, "speed_models.json"))
	if err != nil {
		return err
	}
	discussion, _ := os.ReadFile(filepath.Join(f.docsDir, "results-discussion.md"))
	md := report.ResultsPage(runInfo(f, "main", wall, rs, compute), rs, mm, speed, modelSpeed, string(discussion))
	if err := os.MkdirAll(docs, 0o755); err != nil {
		return err
	}
	return experiments.WriteFileAtomic(filepath.Join(docs, "results.md"), []byte(md))
}

// writeFidelityReport writes fidelity.md from every saved fidelity cell of the
// paper's datasets.
func writeFidelityReport(rn *experiments.Runner, docs string, splits []int, wall time.Duration) error {
	var rs []*experiments.Result
	var compute float64
	for _, c := range experiments.FidelityCells(experiments.PaperDatasets(), splits) {
		if r := rn.Load(c); r != nil {
			rs = append(rs, r)
			compute += r.Seconds
		}
	}
	notes, _ := os.ReadFile(filepath.Join("docs", "fidelity-notes.md"))
	md := report.FidelityPage(runInfo(&reproduceFlags{}, "fidelity", wall, rs, compute), rs, experiments.PaperDatasets(), string(notes))
	if err := os.MkdirAll(docs, 0o755); err != nil {
		return err
	}
	return experiments.WriteFileAtomic(filepath.Join(docs, "fidelity.md"), []byte(md))
}

// runInfo describes this invocation for a report header.
func runInfo(f *reproduceFlags, study string, wall time.Duration, rs []*experiments.Result, compute float64) report.Run {
	stale := 0
	for _, r := range rs {
		if experiments.Stale(r) {
			stale++
		}
	}
	cmd := "pcgcn reproduce --only " + study
	if f.quick {
		cmd += " --quick"
	}
	return report.Run{
		Command:  cmd,
		Machine:  studies.Machine(),
		WallTime: fmt.Sprintf("this invocation %s; total training time of the saved cells behind its %d entries (every candidate counted) %s", formatDuration(wall), len(rs), formatDuration(seconds(compute))),
		Stale:    stale,
		Cells:    len(rs),
	}
}

// formatDuration is the one way the command line prints a duration: whole
// seconds under an hour ("45s", "12m5s"), whole minutes from an hour on
// ("3h5m"), so that the rows of a table and their total read alike.
func formatDuration(d time.Duration) string {
	if d < time.Hour {
		return d.Round(time.Second).String()
	}
	return strings.TrimSuffix(d.Round(time.Minute).String(), "0s")
}

// seconds converts a float number of seconds to a Duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// printPlan writes the --plan table: per study, cells saved and splits left
// with the estimated time, and the totals.
func printPlan(w io.Writer, plan []experiments.PlanEntry, workers int) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "study\tcells\tsaved\tstale\tclaimed\tsplits left\testimated time\t")
	out := planJSON(plan, workers)
	for _, e := range slices.Concat(plan, []experiments.PlanEntry{out.Total}) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\t\n", e.Study, e.Cells, e.Done, e.Stale, e.Claimed, e.Splits, formatDuration(seconds(e.EstSeconds)))
	}
	tw.Flush()
	if workers > 0 {
		fmt.Fprintf(w, "with %d workers: about %s (the largest share when the cells left are shared out longest first)\n",
			workers, formatDuration(seconds(out.WorkersSeconds)))
	}
	fmt.Fprintln(w, "(claimed: cells left that a live worker is training, see --worker)")
	fmt.Fprintf(w, "(stale: saved cells of other numerics than this build's %s, or not recording theirs, which reproduce within their spread, not bit for bit, and --refresh trains them again; and cells saved for other data (a dataset's files changed), another --seed or another budget, which are never used and are trained again)\n", tensor.Numerics())
	fmt.Fprintln(w, "(estimates: seconds per split per unit of graph size of the same model on the same dataset in saved cells, else of the model on any dataset, at the threads and load of those runs; a model with none gets the median rate of the others, and in a directory with no saved cell each model gets its rate in this project's own reproduction, on 2 cores at 1 thread per cell)")
}
