package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/studies"
)

// tuneFlags are tune's flags: the graph, the model and its grid, and the
// protocol's, runner's and scores' flags.
type tuneFlags struct {
	data       dataFlags
	model      string
	grid, sets []string
	protocolFlags
	runnerFlags
	scoreFlags
}

func newTuneCmd() *cobra.Command {
	var f tuneFlags
	var prof cpuProfileFlag
	cmd := &cobra.Command{
		Use:   "tune NAME|--dataset NAME|--data PATH --model NAME --grid KEY=V1,V2,... [flags]",
		Short: "Grid-search a model's hyperparameters on validation accuracy",
		Long: `tune trains the model at every point of a hyperparameter grid (the product of
the --grid axes, applied over the dataset's preset and the fixed --set
overrides) on the requested splits, and ranks the points by mean validation
metric (ties: the earlier grid point). Test accuracy is printed beside it but
plays no part in the ranking.

Each grid point is a cell saved under <results>/tune/ as it finishes, so an
interrupted search resumes where it stopped and a repeated one trains
nothing. A saved point only grows: a search on some of its splits reuses them,
one on splits it lacks trains only those and adds them. A budget other than
the default (--epochs 1000 --patience 200) keeps its points apart, under
<results>/epochsN-patienceM/tune/, another --seed under .../seed<N>/, never
over the default's points. Points on your own graph (--data PATH) are named
by its absolute path, however PATH was written. The protocol is train's: Adam, up to --epochs epochs, patience
--patience, the model at its best-validation epoch.

On a cluster: any number of 'tune --worker' processes (or --shard I/N) on one
shared --results directory train the grid between them; a plain 'tune' with
the same flags afterwards trains nothing and prints the ranking
(deploy/slurm/README.md).`,
		Example: `  pcgcn tune --model linkx --dataset actor --grid hidden=64,256,512 --grid lr=0.05,0.01,0.002 --splits 0-2
  pcgcn tune --model gcn --data mygraph/ --grid dropout=0.2,0.5 --set hidden=128 --json`,
		RunE: func(cmd *cobra.Command, _ []string) error { return prof.run(func() error { return runTune(cmd, &f) }) },
	}
	f.data.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.model, "model", "pcgcn", "the model, by `NAME` (list: pcgcn models)")
	registerCompletion(cmd, "model", completeFrom(modelNames))
	fl.StringArrayVar(&f.grid, "grid", nil, "one grid axis: `key=v1,v2,...` (repeatable; the keys are those of pcgcn models --options NAME)")
	fl.StringArrayVar(&f.sets, "set", nil, "a fixed override for every grid point: `key=value` (repeatable)")
	f.protocolFlags.register(cmd)
	registerQuiet(cmd, &f.data.quiet)
	f.runnerFlags.register(cmd, "directory of the per-point JSON results (points saved in <results>/tune/)")
	f.scoreFlags.register(cmd, metricHelp, "print the ranked points as JSON (validation and test scores in percent, as in the table)")
	prof.register(cmd)
	return cmd
}

// tunePoint is one ranked grid point of tune's JSON output.
type tunePoint struct {
	Rank       int               `json:"rank"`
	Sets       map[string]string `json:"sets"`
	Metric     datasets.Metric   `json:"metric"`
	ValMean    float64           `json:"val_mean"`
	ValStd     float64           `json:"val_std"`
	TestMean   float64           `json:"test_mean"`
	TestStd    float64           `json:"test_std"`
	MsPerEpoch float64           `json:"ms_per_epoch"`
	Splits     int               `json:"splits"`
}

func runTune(cmd *cobra.Command, f *tuneFlags) error {
	start := time.Now()
	if err := f.check(); err != nil {
		return err
	}
	note := &reproduceNote{dir: f.resultsDir, trains: true, unit: "grid point"}
	var stop <-chan struct{}
	if !f.work.on() { // a worker releases its claims on SIGINT and SIGTERM and says so itself
		var finish func()
		stop, finish = onInterruptSaving(cmd.ErrOrStderr(), note.say)
		defer finish()
	}
	threads, err := threadsPerJob(f.threads, f.jobs)
	if err != nil {
		return err
	}
	if len(f.grid) == 0 {
		return fmt.Errorf("no grid: give at least one --grid key=v1,v2 (values comma-separated)")
	}
	grid, err := experiments.ParseGrid(f.grid)
	if err != nil {
		return err
	}
	base := map[string]string{}
	for _, s := range f.sets {
		k, v, err := parseSet(s)
		if err != nil {
			return err
		}
		if slices.Contains(grid.Keys, k) {
			return fmt.Errorf("--set %s: %s is also a --grid axis; give a key either as a fixed --set or as a --grid axis, not both", flagValue(s), k)
		}
		base[k] = v
	}
	g, splits, name, err := tuningGraph(cmd, &f.data, f.splits)
	if err != nil {
		return err
	}
	// every point is validated here, before anything is trained; the errors
	// name the model
	cells, err := experiments.TuneCells(strings.ToLower(f.model), name, grid, base, splits)
	if err != nil {
		return err
	}
	rn, err := tuningRunner(cmd, &f.data, f.runnerFlags, f.scoreFlags, f.seed, threads, name, g)
	if err != nil {
		return err
	}
	rn.Stop = stop
	rn.Epochs, rn.Patience = f.epochs, f.patience
	if f.patience == 0 {
		rn.Patience = f.epochs // Runner: 0 means the protocol default
	}
	if f.epochs != 1000 || f.patience != 200 {
		// saved points do not record the epoch budget: keep other budgets apart
		rn.Dir = filepath.Join(f.resultsDir, fmt.Sprintf("epochs%d-patience%d", f.epochs, f.patience))
	}
	if f.work.on() {
		wo, err := f.work.options()
		if err != nil {
			return err
		}
		rn.Lease = f.work.lease
		ctx, stop := signalContext(cmd)
		defer stop()
		if err := rn.Work(ctx, cells, wo); err != nil {
			return err
		}
		fmt.Fprintf(cmd.OutOrStdout(), "worker finished in %s: no grid point is left to it (run the same tune without --worker for the ranking)\n",
			studies.FormatDuration(time.Since(start)))
		return nil
	}
	note.setDir(rn.Dir)
	rs, err := rn.Run(cells)
	if err != nil {
		return err
	}
	ranked := experiments.RankByValidation(rs)
	points := make([]tunePoint, len(ranked))
	for i, r := range ranked {
		points[i] = tunePoint{Rank: i + 1, Sets: r.Cell.Sets, Metric: r.Metric, ValMean: r.ValMean, ValStd: r.ValStd,
			TestMean: r.TestMean, TestStd: r.TestStd, MsPerEpoch: r.MsPerEpoch, Splits: len(r.PerSplit)}
	}
	out := cmd.OutOrStdout()
	if f.jsonOut {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(points)
	}
	printTune(out, f, grid, points, len(splits))
	fmt.Fprintf(rn.Progress, "wall time %s\n", studies.FormatDuration(time.Since(start)))
	return nil
}

func printTune(w io.Writer, f *tuneFlags, grid experiments.Grid, points []tunePoint, nSplits int) {
	metric := datasets.Accuracy
	if len(points) > 0 && points[0].Metric != "" {
		metric = points[0].Metric
	}
	ds := f.data.dataset
	if f.data.path != "" {
		ds = f.data.path
	}
	fmt.Fprintf(w, "%s on %s: %d grid points × %d splits, ranked by mean validation %s (test shown, not used)\n",
		f.model, ds, len(points), nSplits, metric)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "rank\t")
	for _, k := range grid.Keys {
		fmt.Fprintf(tw, "%s\t", k)
	}
	fmt.Fprint(tw, "val %\ttest %\tms/epoch\t\n")
	for _, p := range points {
		fmt.Fprintf(tw, "%d\t", p.Rank)
		for _, k := range grid.Keys {
			fmt.Fprintf(tw, "%s\t", p.Sets[k])
		}
		fmt.Fprintf(tw, "%.2f ± %.2f\t%.2f ± %.2f\t%.1f\t\n", p.ValMean, p.ValStd, p.TestMean, p.TestStd, p.MsPerEpoch)
	}
	tw.Flush()
	if len(points) > 0 {
		var flags []string
		for _, k := range grid.Keys {
			flags = append(flags, "--set "+k+"="+points[0].Sets[k])
		}
		fmt.Fprintf(w, "best on validation: %s\n", strings.Join(flags, " "))
	}
}
