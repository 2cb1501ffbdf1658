package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/search"
	"github.com/pcgcn/pcgcn/studies"
)

// searchFlags are search's flags: the graph, the model, its space and the
// fixed overrides, the halving schedule, and the protocol's, runner's and
// scores' flags.
type searchFlags struct {
	data                 dataFlags
	model                string
	spaceSets, sets      []string
	trials, eta          int
	minSplits, maxSplits int
	minEpochs, maxEpochs int
	plan                 bool
	withPreset           bool
	fromScratch          bool
	protocolFlags
	runnerFlags
	scoreFlags
}

func newSearchCmd() *cobra.Command {
	var f searchFlags
	var prof cpuProfileFlag
	cmd := &cobra.Command{
		Use:   "search NAME|--dataset NAME|--data PATH --model NAME [--trials N] [flags]",
		Short: "Search a model's hyperparameters by successive halving on validation, with a budget in trials",
		Long: `search draws --trials points from the model's search space (pcgcn models
--space NAME; --space-set changes or adds a dimension, --set fixes an option
and drops its dimension) with the seeded quasi-random sequence, and races
them by successive halving: rung 1 trains every point on --min-splits splits
for --min-epochs epochs, each rung keeps the best 1/--eta on mean validation
metric, and the last trains its points on --max-splits splits for
--max-epochs epochs. The point the last rung keeps is then trained on every
split of --splits with the protocol's budget (--epochs, --patience), and only
then is its test score read and printed: test plays no part in any choice.
A rung of E epochs keeps --patience (at most E: a short rung runs its whole
budget and keeps its best-validation epoch).

The budget is the same for every model given the same --trials and
schedule: the report gives it in trials, rungs and split-epochs (Σ trials ×
splits × epochs) and the seconds the saved cells record.

Each trial of each rung is a cell saved under <results>/epochsE-patienceP/search/
(its rung's budget; the protocol's budget under <results>/search/) as it
finishes, so an interrupted search resumes and a repeated one trains
nothing. --plan lists the rungs, what is saved and an estimate of the rest.

A promoted trial does not train the previous rung's splits again from their
first epoch: each split keeps its state at its end (parameters, Adam's
moments, the dropout generator's position) under <results>/carry/, and the
next rung continues it, with the numbers a run from scratch gives, bit for
bit; the states nothing will continue are removed as the search goes on, all
of them at its end. --from-scratch keeps none (for a disk too small for a
rung's parameters).

On a cluster: any number of 'search --worker' processes on one shared
--results directory train the rungs between them through the claims, each
rung once the previous one is complete (--shard is refused: a rung waits for
all of the previous one); a plain 'search' with the same flags afterwards
trains nothing and prints the result.`,
		Example: `  pcgcn search --model gcn --dataset texas --trials 27 --jobs 2
  pcgcn search --model pcgcn --dataset chameleon --trials 9 --space-set lr=log:1e-3:1e-1 --set layers=2 --json
  pcgcn search --model linkx --data mygraph/ --trials 27 --plan`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return prof.run(func() error { return runSearch(cmd, &f) })
		},
	}
	f.data.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.model, "model", "pcgcn", "the model, by `NAME` (list: pcgcn models)")
	registerCompletion(cmd, "model", completeFrom(modelNames))
	fl.StringArrayVar(&f.spaceSets, "space-set", nil, "change or add one dimension of the model's space: `key=spec`, as pcgcn models --space prints them (lr=log:1e-4:1e-1, hidden=int:16:256:log, norm=choice:none,layer; repeatable)")
	fl.StringArrayVar(&f.sets, "set", nil, "a fixed override for every point: `key=value` (repeatable); a key of the space is then not searched")
	registerSearchBudget(cmd, &f.trials, &f.eta)
	fl.IntVar(&f.minSplits, "min-splits", 1, "splits of the first rung")
	fl.BoolVar(&f.withPreset, "with-preset", true, "make the model's preset for the dataset one of the --trials points (in place of the last one drawn), so that the search starts from the authors' setting; false: every point drawn from the space")
	fl.IntVar(&f.maxSplits, "max-splits", 0, "splits of the last rung (0: every split of --splits)")
	fl.IntVar(&f.minEpochs, "min-epochs", 0, "epochs of the first rung (0: --max-epochs / eta^(rungs−1), at least 1)")
	fl.IntVar(&f.maxEpochs, "max-epochs", 0, "epochs of the last rung (0: --epochs, so that the last rung's cell is part of the final cell)")
	fl.BoolVar(&f.fromScratch, "from-scratch", false, "train every rung's splits from their first epoch instead of continuing where the previous rung ended them (the same numbers, more time; no states kept under <results>/carry/)")
	fl.BoolVar(&f.plan, "plan", false, "train nothing: list the rungs and the final cell, the cells saved and the splits left, with an estimate of their time")
	f.protocolFlags.register(cmd)
	registerQuiet(cmd, &f.data.quiet)
	f.runnerFlags.register(cmd, "directory of the per-trial JSON results (trials saved in <results>[/epochsE-patienceP]/search/)")
	f.scoreFlags.register(cmd, metricHelp, "print the search as JSON (with --plan: the plan): the rungs with each trial's validation score, the chosen point, its final scores and the budget")
	prof.register(cmd)
	return cmd
}

// schedule resolves the halving schedule from the flags, with n splits.
func (f *searchFlags) schedule(n int) (search.Schedule, error) {
	s := search.Schedule{Trials: f.trials, Eta: f.eta, MinSplits: f.minSplits, MaxSplits: f.maxSplits,
		MinEpochs: f.minEpochs, MaxEpochs: f.maxEpochs}
	switch {
	case f.trials < 1:
		return s, fmt.Errorf("--trials %d: must be at least 1", f.trials)
	case f.eta < 2:
		return s, fmt.Errorf("--eta %d: must be at least 2", f.eta)
	case f.maxSplits < 0 || f.maxSplits > n:
		return s, fmt.Errorf("--max-splits %d: must be in [0,%d] (the splits of --splits)", f.maxSplits, n)
	case f.minEpochs < 0 || f.maxEpochs < 0:
		return s, fmt.Errorf("--min-epochs %d, --max-epochs %d: must be at least 0 (0: the default)", f.minEpochs, f.maxEpochs)
	}
	if s.MaxSplits == 0 {
		s.MaxSplits = n
	}
	if s.MaxEpochs == 0 {
		s.MaxEpochs = f.epochs
	}
	if s.MinEpochs == 0 {
		s.MinEpochs = search.DefaultMinEpochs(f.trials, f.eta, s.MaxEpochs)
	}
	if s.MinSplits > s.MaxSplits {
		return s, fmt.Errorf("--min-splits %d: more than the last rung's %d splits", s.MinSplits, s.MaxSplits)
	}
	if s.MinEpochs > s.MaxEpochs {
		return s, fmt.Errorf("--min-epochs %d: more than the last rung's %d epochs", s.MinEpochs, s.MaxEpochs)
	}
	return s, s.Validate()
}

// space returns the model's search space with the --space-set dimensions
// changed or added and the --set keys dropped, and the fixed overrides.
func (f *searchFlags) space(spec models.Spec) (*search.Space, map[string]string, error) {
	fixed := map[string]string{}
	for _, s := range f.sets {
		k, v, err := parseSet(s)
		if err != nil {
			return nil, nil, err
		}
		fixed[k] = v
	}
	var dims []search.Dim
	for _, d := range spec.Space.Dims {
		dim, err := search.ParseDim(d)
		if err != nil {
			return nil, nil, fmt.Errorf("%s's search space (models/spaces.go): %w", spec.Name, err)
		}
		dims = append(dims, dim)
	}
	for _, s := range f.spaceSets {
		dim, err := search.ParseDim(s)
		if err != nil {
			return nil, nil, fmt.Errorf("--space-set %s: %w", flagValue(s), err)
		}
		if _, ok := fixed[dim.Name]; ok {
			return nil, nil, fmt.Errorf("--space-set %s: %s is also given by --set; search it or fix it, not both", flagValue(s), dim.Name)
		}
		i := slices.IndexFunc(dims, func(d search.Dim) bool { return d.Name == dim.Name })
		if i >= 0 {
			dims[i] = dim
		} else {
			dims = append(dims, dim)
		}
	}
	dims = slices.DeleteFunc(dims, func(d search.Dim) bool { _, ok := fixed[d.Name]; return ok })
	if len(dims) == 0 {
		return nil, nil, fmt.Errorf("--set fixes every dimension of %s's space: nothing is left to search", spec.Name)
	}
	sp, err := search.NewSpace(dims...)
	if len(fixed) == 0 {
		fixed = nil
	}
	return sp, fixed, err
}

func runSearch(cmd *cobra.Command, f *searchFlags) error {
	start := time.Now()
	if err := f.check(); err != nil {
		return err
	}
	if f.work.on() && f.plan {
		return fmt.Errorf("give --plan or --worker, not both")
	}
	var stop <-chan struct{}
	if !f.work.on() { // a worker releases its claims on SIGINT and SIGTERM and says so itself
		note := &reproduceNote{dir: f.resultsDir, trains: !f.plan, unit: "trial"}
		var finish func()
		stop, finish = onInterruptSaving(cmd.ErrOrStderr(), note.say)
		defer finish()
	}
	if f.work.shard != "" {
		return fmt.Errorf("--shard %s: a search's rung waits for all of the previous one, which a static shard cannot; run --worker processes (claims) instead", flagValue(f.work.shard))
	}
	threads, err := threadsPerJob(f.threads, f.jobs)
	if err != nil {
		return err
	}
	spec, err := models.NewRegistry().Get(f.model)
	if err != nil {
		return fmt.Errorf("--model: %w", err)
	}
	sp, fixed, err := f.space(spec)
	if err != nil {
		return err
	}
	g, splits, name, err := tuningGraph(cmd, &f.data, f.splits)
	if err != nil {
		return err
	}
	sched, err := f.schedule(len(splits))
	if err != nil {
		return err
	}
	patience := f.patience
	if patience == 0 {
		patience = f.epochs // never stop early
	}
	s := &experiments.Search{Model: spec.Name, Dataset: name, Space: sp, Fixed: fixed, Seed: f.seed, WithPreset: f.withPreset, Schedule: sched,
		Splits: splits, Epochs: f.epochs, Patience: patience, FromScratch: f.fromScratch}
	if err := s.Validate(); err != nil {
		return err
	}
	rn, err := tuningRunner(cmd, &f.data, f.runnerFlags, f.scoreFlags, f.seed, threads, name, g)
	if err != nil {
		return err
	}
	rn.Stop = stop
	out := cmd.OutOrStdout()
	switch {
	case f.plan:
		rows, err := s.Plan(rn)
		if err != nil {
			return err
		}
		if f.jsonOut {
			enc := json.NewEncoder(out)
			enc.SetIndent("", "  ")
			return enc.Encode(rows)
		}
		printSearchPlan(out, s, rows)
		return nil
	case f.work.on():
		wo, err := f.work.options()
		if err != nil {
			return err
		}
		rn.Lease = f.work.lease
		ctx, stop := signalContext(cmd)
		defer stop()
		if err := s.Work(ctx, rn, wo); err != nil {
			return err
		}
		fmt.Fprintf(out, "worker finished in %s: the search is complete (run the same search without --worker for the result)\n",
			studies.FormatDuration(time.Since(start)))
		return nil
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	rep, err := s.Run(ctx, rn)
	if err != nil {
		return err
	}
	if f.jsonOut {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printSearch(out, s, rep, spec.Space.Source)
	fmt.Fprintf(rn.Progress, "wall time %s\n", studies.FormatDuration(time.Since(start)))
	return nil
}

// printSearch prints the rungs (each trial's validation score, best
// first), the chosen point, its final scores and the budget.
func printSearch(w io.Writer, s *experiments.Search, rep *experiments.SearchReport, source string) {
	fmt.Fprintf(w, "%s on %s: %d trials from the space %s\n", rep.Model, s.Dataset, rep.Budget.Trials, rep.Space)
	fmt.Fprintf(w, "space's source: %s\n", source)
	if len(rep.Fixed) > 0 {
		fmt.Fprintf(w, "fixed: %s\n", strings.Join(setsList(rep.Fixed), " "))
	}
	names := s.Space.Names()
	for _, r := range rep.Rungs {
		fmt.Fprintf(w, "\nrung %d: %d trials × %d splits × %d epochs (patience %d), by mean validation\n", r.Index+1, r.Trials, r.Splits, r.Epochs, r.Patience)
		points := slices.Clone(r.Points)
		slices.SortStableFunc(points, func(a, b experiments.TrialReport) int {
			switch {
			case a.ValMean > b.ValMean:
				return -1
			case a.ValMean < b.ValMean:
				return 1
			}
			return strings.Compare(string(a.ID), string(b.ID))
		})
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, strings.Join(names, "\t")+"\tval %\tnext\t\n")
		for _, p := range points {
			for _, k := range names {
				fmt.Fprintf(tw, "%s\t", p.Values[k])
			}
			next := ""
			if p.Promoted {
				next = "✓"
			}
			fmt.Fprintf(tw, "%.2f ± %.2f\t%s\t\n", p.ValMean, p.ValStd, next)
		}
		tw.Flush()
	}
	if rep.Final != nil {
		fmt.Fprintf(w, "\nchosen on validation: %s\n", flagsOf(rep.Chosen.Values))
		fmt.Fprintf(w, "final, %d splits × %d epochs (patience %d): val %.2f ± %.2f, test %.2f ± %.2f (%s)\n", rep.Final.Splits,
			rep.Final.Epochs, rep.Final.Patience, rep.Final.ValMean, rep.Final.ValStd, rep.Final.TestMean, rep.Final.TestStd, rep.Final.Metric)
	}
	b := rep.Budget
	continued := ""
	if b.EpochsContinued > 0 {
		continued = fmt.Sprintf(" (and %d continued from the previous rung instead of trained again)", b.EpochsContinued)
	}
	fmt.Fprintf(w, "budget: %d trials, %d rungs, %d split-epochs (+%d for the final cell); %d epochs trained%s, %s of training recorded\n",
		b.Trials, b.Rungs, b.SplitEpochs, b.FinalSplitEpochs, b.EpochsTrained, continued, studies.FormatDuration(time.Duration(b.Seconds*float64(time.Second))))
}

// printSearchPlan prints --plan: each rung and the final cell.
func printSearchPlan(w io.Writer, s *experiments.Search, rows []experiments.SearchPlanRow) {
	fmt.Fprintf(w, "%s on %s: %d trials, eta %d, space %s\n", s.Model, s.Dataset, s.Schedule.Trials, s.Schedule.Eta, s.Space)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\ttrials\tsplits\tepochs\tpatience\tsaved\tsplits left\test. time\t\n")
	var total float64
	for _, r := range rows {
		saved := fmt.Sprint(r.Done)
		if !r.Known {
			saved = "(waits)"
		}
		est := studies.FormatDuration(time.Duration(r.EstSeconds * float64(time.Second)))
		if r.EstSeconds == 0 && r.SplitsLeft > 0 {
			est = "?"
		}
		total += r.EstSeconds
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%d\t%s\t\n", r.Name, r.Trials, r.Splits, r.Epochs, r.Patience, saved, r.SplitsLeft, est)
	}
	tw.Flush()
	fmt.Fprintf(w, "estimated time left: %s (a rung's points are known once the previous rung is complete)\n",
		studies.FormatDuration(time.Duration(total*float64(time.Second))))
}

// setsList returns key=value of m, in key order.
func setsList(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return out
}

// flagsOf returns the --set flags of a point.
func flagsOf(m map[string]string) string {
	var out []string
	for _, kv := range setsList(m) {
		out = append(out, "--set "+kv)
	}
	return strings.Join(out, " ")
}
