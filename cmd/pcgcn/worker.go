package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/experiments"
)

// runnerFlags are the flags of the commands that train cells through the
// experiments runner (reproduce, tune): where the cells are saved, how many
// train at once, and the worker mode.
type runnerFlags struct {
	resultsDir string
	jobs       int
	work       workerFlags
}

func (r *runnerFlags) register(cmd *cobra.Command, resultsHelp string) {
	fl := cmd.Flags()
	fl.StringVar(&r.resultsDir, "results", "results", resultsHelp)
	fl.IntVar(&r.jobs, "jobs", 1, jobsHelp)
	r.work.register(cmd)
}

// scoreFlags are the flags of the commands that report scores (train, tune,
// reproduce): the metric and JSON output.
type scoreFlags struct {
	metric  string
	jsonOut bool
}

func (s *scoreFlags) register(cmd *cobra.Command, metricHelp, jsonHelp string) {
	fl := cmd.Flags()
	fl.StringVar(&s.metric, "metric", "", metricHelp)
	registerCompletion(cmd, "metric", completeFrom(metricNames))
	fl.BoolVar(&s.jsonOut, "json", false, jsonHelp)
}

// workerFlags are the flags of the worker mode of reproduce and tune: many
// processes, on one machine or on a cluster's nodes, sharing one results
// directory (deploy/slurm/README.md).
type workerFlags struct {
	worker bool
	shard  string
	lease  time.Duration
}

func (w *workerFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.BoolVar(&w.worker, "worker", false, "worker mode: claim the next cell of the plan that is neither saved nor claimed (longest first), train it, save it, until none is left; run as many workers as you like on one --results directory (also on several machines sharing it); renders nothing (see --render)")
	fl.StringVar(&w.shard, "shard", "", "worker mode with a static share of the plan: `I/N` (0 ≤ I < N), or slurm to read SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT; shares are balanced by estimated cost and the same in every task")
	fl.DurationVar(&w.lease, "lease", experiments.DefaultLease, "worker mode: a claim not renewed for this long is taken to belong to a dead worker, and its cell is taken up by another (renewed every quarter lease; the machines' clocks must agree to well within it)")
}

// on reports whether worker mode was asked for.
func (w *workerFlags) on() bool { return w.worker || w.shard != "" }

// options resolves the worker options (the shard from the environment for
// --shard slurm).
func (w *workerFlags) options() (experiments.WorkOptions, error) {
	var wo experiments.WorkOptions
	if w.lease <= 0 {
		return wo, fmt.Errorf("--lease %s: must be positive", w.lease)
	}
	if w.shard != "" {
		s, err := experiments.ParseShard(w.shard, os.Getenv)
		if err != nil {
			return wo, err
		}
		wo.Shard = s
	}
	return wo, nil
}

// signalContext is cancelled by SIGINT or SIGTERM (what scancel sends), so
// that a worker releases its claims before it exits.
func signalContext(cmd *cobra.Command) (context.Context, context.CancelFunc) {
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}
