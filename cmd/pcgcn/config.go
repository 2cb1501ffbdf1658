package main

import (
	"errors"
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
	f.StringArrayVar(&m.sets, "set", nil, "override one hyperparameter: `key=value` (repeatable; pcgcn models --options NAME lists the keys; preset=platonov, for gcn, sage and gat, applies Platonov et al.'s setting first, which the other options adjust)")
	f.Float64Var(&m.lr, "lr", 0, "learning rate, finite and > 0 (overrides the preset; the option lr)")
	f.Float64Var(&m.wd, "wd", 0, "weight decay, PyTorch-style L2 added to the gradient, finite and ≥ 0 (overrides the preset; the option weight_decay)")
	f.Float64Var(&m.dropout, "dropout", 0, "dropout rate in [0,1) (overrides the preset; the option dropout)")
	f.IntVar(&m.hidden, "hidden", 0, "hidden size (overrides the preset; the option hidden)")
	f.IntVar(&m.layers, "layers", 0, "number of layers (overrides the preset; the option layers)")
	registerCompletion(cmd, "model", completeFrom(modelNames))
}

// resolve returns the model's spec and its config: the dataset preset, then
// the config file, then the shortcut flags, then --set, in that order. The
// result is validated (models.Config.Validate), so an out-of-range value
// fails here, before anything is trained, with the flag that set it.
func (m *modelFlags) resolve(cmd *cobra.Command, dataset string) (models.Spec, models.Config, error) {
	spec, err := models.NewRegistry().Get(m.model)
	if err != nil {
		return spec, nil, err
	}
	var overrides []models.Override
	// a named bundle (--set preset=platonov) comes first, so that the config
	// file, the shortcut flags and the other --set adjust it
	for _, kv := range m.sets {
		if k, v, err := parseSet(kv); err == nil && k == models.PresetKey {
			overrides = append(overrides, prefixed(fmt.Sprintf("--set %s: %s", flagValue(kv), spec.Name), models.Set(k, v)))
		}
	}
	if m.config != "" {
		data, err := os.ReadFile(m.config)
		if err != nil {
			return spec, nil, fmt.Errorf("--config: %w", err)
		}
		overrides = append(overrides, prefixed(fmt.Sprintf("--config %s", m.config), models.JSON(data)))
	}
	overrides = append(overrides, m.shortcuts(cmd))
	for _, kv := range m.sets {
		k, v, err := parseSet(kv)
		if err != nil {
			return spec, nil, err
		}
		if k == models.PresetKey {
			continue
		}
		overrides = append(overrides, prefixed(fmt.Sprintf("--set %s: %s", flagValue(kv), spec.Name), models.Set(k, v)))
	}
	cfg, err := models.Resolve(spec, dataset, overrides...)
	if err != nil {
		return spec, nil, m.blame(cmd, err) // a range error names the model already
	}
	return spec, cfg, nil
}

// shortcuts is the override of the shortcut flags that were given (--lr,
// --wd, --dropout, --hidden, --layers).
func (m *modelFlags) shortcuts(cmd *cobra.Command) models.Override {
	return func(cfg models.Config) error {
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
		return nil
	}
}

// prefixed returns o with its error prefixed by the input it came from.
func prefixed(prefix string, o models.Override) models.Override {
	return func(cfg models.Config) error {
		if err := o(cfg); err != nil {
			return fmt.Errorf("%s: %w", prefix, err)
		}
		return nil
	}
}

// shortcutFlags maps an option key to the flag that sets it directly.
var shortcutFlags = map[string]string{"lr": "lr", "weight_decay": "wd", "dropout": "dropout", "hidden": "hidden", "layers": "layers"}

// blame prefixes a range error of an option (models.OptionError) with
// the input that set the value: the last --set of its key, else its shortcut
// flag, else --config.
func (m *modelFlags) blame(cmd *cobra.Command, err error) error {
	var oe *models.OptionError
	if !errors.As(err, &oe) || strings.HasPrefix(err.Error(), "--") {
		return err // not a range error, or already named by its input (prefixed)
	}
	for i := len(m.sets) - 1; i >= 0; i-- {
		if k, _, _ := parseSet(m.sets[i]); k == oe.Key {
			return fmt.Errorf("--set %s: %w", flagValue(m.sets[i]), err)
		}
	}
	if name, ok := shortcutFlags[oe.Key]; ok && cmd.Flags().Changed(name) {
		return fmt.Errorf("--%s %s: %w", name, cmd.Flags().Lookup(name).Value, err)
	}
	if m.config != "" {
		return fmt.Errorf("--config %s: %w", m.config, err)
	}
	return err
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

func (p *protocolFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	registerSplits(cmd, &p.splits)
	registerSeed(cmd, &p.seed)
	registerThreads(cmd, &p.threads)
	fl.IntVar(&p.epochs, "epochs", 1000, "maximum epochs per split (≥ 1)")
	fl.IntVar(&p.patience, "patience", 200, "stop after this many epochs without validation improvement (0: never)")
}

// check rejects out-of-range protocol flags before anything is loaded or
// trained.
func (p *protocolFlags) check() error {
	if p.epochs < 1 {
		return fmt.Errorf("--epochs %d: must be at least 1", p.epochs)
	}
	if p.patience < 0 {
		return fmt.Errorf("--patience %d: must be at least 0 (0: never stop early)", p.patience)
	}
	return checkThreads("threads", p.threads)
}

// threadsHelp is the help of every --threads flag: the range checkThreads
// enforces.
const threadsHelp = "goroutines for the kernels: 0 uses all cores (tune and reproduce divide them among the --jobs cells trained at once; train, tune and reproduce train a small graph's splits side by side, one per thread); at most 4 × the cores, more is refused"

// checkThreads refuses a negative --threads and more goroutines than four
// per core, which only adds scheduling overhead (a typo such as 1000).
func checkThreads(flag string, n int) error {
	if limit := 4 * runtime.NumCPU(); n < 0 || n > limit {
		return fmt.Errorf("--%s %d: must be in [0,%d] on this machine (0: all %d cores; at most 4 per core)", flag, n, limit, runtime.NumCPU())
	}
	return nil
}

// jobsHelp explains --jobs (reproduce, tune), with the gain measured on this
// project's 2-core machine (BENCHMARKS.md, "Cells at once").
const jobsHelp = "cells (model × dataset × options) trained at once, each with --threads goroutines; " +
	"one training run does not scale perfectly over cores, so on a 2-core machine --jobs 2 trains " +
	"1.1–1.6× more cells per hour than one job on both cores (BENCHMARKS.md); on a graph of at most 30,000 nodes one job " +
	"already trains a cell's splits side by side, one per thread; results are the same whatever --jobs is"

// threadsPerJob resolves --threads for --jobs cells at once: 0 shares the
// cores among the jobs (at least one goroutine each).
func threadsPerJob(threads, jobs int) (int, error) {
	if err := checkThreads("threads", threads); err != nil {
		return 0, err
	}
	switch {
	case jobs < 1 || jobs > 4*runtime.NumCPU():
		return 0, fmt.Errorf("--jobs %d: must be in [1,%d] on this machine (at most 4 per core)", jobs, 4*runtime.NumCPU())
	case threads == 0 && jobs > 1:
		return max(1, runtime.NumCPU()/jobs), nil
	}
	return threads, nil
}
