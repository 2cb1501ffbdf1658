package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/studies"
)

// tuningGraph loads the graph of a tune or search command (warning on
// stderr about what graph.Warnings finds), its requested splits, and the
// name its cells carry: the registry name, or the absolute path of --data
// (one cell file per graph, however the path was written).
func tuningGraph(cmd *cobra.Command, data *dataFlags, splitsFlag string) (*graph.Graph, []int, string, error) {
	g, _, err := data.load(cmd)
	if err != nil {
		return nil, nil, "", err
	}
	warn(cmd.ErrOrStderr(), g.Warnings())
	splits, err := parseSplits(splitsFlag, len(g.Splits))
	if err != nil {
		return nil, nil, "", err
	}
	name := strings.ToLower(data.dataset)
	if data.path != "" {
		if name, err = filepath.Abs(data.path); err != nil {
			return nil, nil, "", fmt.Errorf("--data %s: %w", data.path, err)
		}
	}
	return g, splits, name, nil
}

// tuningRunner is the runner a tune or search command trains its cells
// with: the results directory, the data options (the runner opens the graph
// again, with the same random splits and labels as g), threads per job,
// jobs, the seed, progress on stderr and the metric of the graph named name.
func tuningRunner(cmd *cobra.Command, data *dataFlags, r runnerFlags, score scoreFlags, seed uint64, threads int, name string, g *graph.Graph) (*experiments.Runner, error) {
	dataDir, _ := cmd.Flags().GetString("data-dir")
	progress := progressWriter(cmd, data.quiet)
	rn := &experiments.Runner{Dir: r.resultsDir, Data: datasets.Options{DataDir: dataDir, Offline: data.offline, Progress: progress},
		Threads: threads, Jobs: r.jobs, Seed: seed, Progress: progress, ReferenceRates: studies.ReferenceRates(), SearchReferenceRates: studies.SearchReferenceRates()}
	if err := data.user.apply(cmd, &rn.Data); err != nil {
		return nil, err
	}
	metric, err := resolveMetric(score.metric, name, g)
	if err != nil {
		return nil, err
	}
	rn.Metrics = map[string]datasets.Metric{name: metric}
	return rn, nil
}
