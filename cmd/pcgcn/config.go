package main

import (
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/models"
)

// modelFlags are the flags that choose and configure a model.
type modelFlags struct {
	model  string
	config string
	sets   []string
	// shortcuts for the common hyperparameters (applied when set)
	lr, wd, dropout float64
	hidden, layers  int
}

func (m *modelFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&m.model, "model", "pcgcn", "the model, by `NAME` (list: pcgcn models)")
	f.StringVar(&m.config, "config", "", "JSON file of hyperparameters, applied over the dataset's preset")
	f.StringArrayVar(&m.sets, "set", nil, "override one hyperparameter: `key=value` (repeatable; pcgcn models --options NAME lists the keys)")
	f.Float64Var(&m.lr, "lr", 0, "learning rate (overrides the preset)")
	f.Float64Var(&m.wd, "wd", 0, "weight decay, PyTorch-style L2 added to the gradient (overrides the preset)")
	f.Float64Var(&m.dropout, "dropout", 0, "dropout rate (overrides the preset)")
	f.IntVar(&m.hidden, "hidden", 0, "hidden size (overrides the preset)")
	f.IntVar(&m.layers, "layers", 0, "number of layers (overrides the preset)")
}

// resolve returns the model's spec and its config: the dataset preset, then
// the config file, then the shortcut flags, then --set, in that order. The
// result is validated (models.Config.Validate), so an out-of-range value
// fails here, before anything is trained.
func (m *modelFlags) resolve(cmd *cobra.Command, dataset string) (models.Spec, models.Config, error) {
	spec, err := models.NewRegistry().Get(m.model)
	if err != nil {
		return spec, nil, err
	}
	cfg := spec.Preset(dataset)
	if m.config != "" {
		data, err := os.ReadFile(m.config)
		if err != nil {
			return spec, nil, fmt.Errorf("--config: %w", err)
		}
		if err := models.LoadOptions(cfg, data); err != nil {
			return spec, nil, fmt.Errorf("--config %s: %w", m.config, err)
		}
	}
	c := cfg.Base()
	f := cmd.Flags()
	if f.Changed("lr") {
		c.LR = m.lr
	}
	if f.Changed("wd") {
		c.WeightDecay = m.wd
	}
	if f.Changed("dropout") {
		c.Dropout = m.dropout
	}
	if f.Changed("hidden") {
		c.Hidden = m.hidden
	}
	if f.Changed("layers") {
		c.Layers = m.layers
	}
	for _, kv := range m.sets {
		k, v, err := parseSet(kv)
		if err != nil {
			return spec, nil, err
		}
		if err := models.SetOption(cfg, k, v); err != nil {
			return spec, nil, fmt.Errorf("--set for model %s: %w", spec.Name, err)
		}
	}
	if err := cfg.Validate(); err != nil {
		return spec, nil, err // names the model already
	}
	return spec, cfg, nil
}

// parseSet splits one --set argument, key=value, trimming spaces.
func parseSet(kv string) (key, value string, err error) {
	k, v, ok := strings.Cut(kv, "=")
	if !ok || strings.TrimSpace(k) == "" {
		return "", "", fmt.Errorf("--set %q: want key=value", kv)
	}
	return strings.TrimSpace(k), strings.TrimSpace(v), nil
}

// protocolFlags are the training-protocol flags shared by the commands that
// train (train, tune): which splits, the seed, threads and the epoch budget.
type protocolFlags struct {
	splits   string
	seed     uint64
	threads  int
	epochs   int
	patience int
}

func (p *protocolFlags) register(cmd *cobra.Command, splitsHelp string) {
	fl := cmd.Flags()
	fl.StringVar(&p.splits, "splits", "all", splitsHelp+": all, 0-9, 3 or 0,2,5-7")
	fl.Uint64Var(&p.seed, "seed", 42, "base random seed (split k uses a seed derived from it and k)")
	fl.IntVar(&p.threads, "threads", 0, "goroutines for the kernels (0: all cores)")
	fl.IntVar(&p.epochs, "epochs", 1000, "maximum epochs per split")
	fl.IntVar(&p.patience, "patience", 200, "stop after this many epochs without validation improvement (0: never)")
}

// jobsHelp explains --jobs (reproduce, tune), with the gain measured on this
// project's 2-core machine (BENCHMARKS.md, "Cells at once").
const jobsHelp = "cells (model × dataset × options) trained at once, each with --threads goroutines; " +
	"one training run does not scale perfectly over cores, so on a 2-core machine --jobs 2 trains " +
	"1.1–1.6× more cells per hour than one job on both cores (BENCHMARKS.md); results are the same whatever --jobs is"

// threadsPerJob resolves --threads for --jobs cells at once: 0 shares the
// cores among the jobs (at least one goroutine each).
func threadsPerJob(threads, jobs int) (int, error) {
	switch {
	case jobs < 1:
		return 0, fmt.Errorf("--jobs must be at least 1, got %d", jobs)
	case threads < 0:
		return 0, fmt.Errorf("--threads must be at least 0, got %d", threads)
	case threads == 0 && jobs > 1:
		return max(1, runtime.NumCPU()/jobs), nil
	}
	return threads, nil
}
