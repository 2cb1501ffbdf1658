package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
)

// dataFlags are the flags that choose a graph: a registry name or a path.
// Every command that takes one graph registers them, and accepts the name as
// its one positional argument too (pcgcn train cornell = pcgcn train
// --dataset cornell).
type dataFlags struct {
	dataset string
	path    string
	// offline forbids downloads (--offline).
	offline bool
	// quiet draws no download progress (the commands' --quiet).
	quiet bool
	// mapFeatures memory-maps a --data directory's features.npy
	// (mini-batch training: datasets.Options.MapFeatures).
	mapFeatures bool
	user        userGraphFlags
}

func (d *dataFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&d.dataset, "dataset", "", "a registry dataset, by `NAME` (list: pcgcn datasets; also accepted as the one argument)")
	cmd.Flags().StringVar(&d.path, "data", "", "path to your own graph (see docs/data-format.md) instead of --dataset")
	cmd.Flags().BoolVar(&d.offline, "offline", false, offlineHelp)
	d.user.register(cmd)
	cmd.Args = d.args
	cmd.ValidArgsFunction = completeDatasetArg
	registerCompletion(cmd, "dataset", completeFrom(datasetNames))
}

// args takes an optional positional dataset name, the same as --dataset.
func (d *dataFlags) args(cmd *cobra.Command, args []string) error {
	switch {
	case len(args) > 1:
		return fmt.Errorf("%s takes at most one dataset name, got %d arguments: %s", cmd.Name(), len(args), strings.Join(args, " "))
	case len(args) == 1 && d.dataset != "":
		return fmt.Errorf("give the dataset once: %s or --dataset %s", args[0], d.dataset)
	case len(args) == 1:
		d.dataset = args[0]
	}
	return nil
}

// load resolves the graph and its registry entry (zero Entry for --data).
func (d *dataFlags) load(cmd *cobra.Command) (*graph.Graph, datasets.Entry, error) {
	switch {
	case d.dataset != "" && d.path != "":
		return nil, datasets.Entry{}, fmt.Errorf("give --dataset %s or --data %s, not both", d.dataset, d.path)
	case d.path != "":
		var o datasets.Options
		if err := d.user.apply(cmd, &o); err != nil {
			return nil, datasets.Entry{}, err
		}
		o.Progress = d.progress() // a byte bar per large file, on a terminal
		o.MapFeatures = d.mapFeatures
		g, err := datasets.LoadPathWith(d.path, o)
		if err != nil {
			return nil, datasets.Entry{}, fmt.Errorf("--data %s: %w", d.path, err)
		}
		if err := d.user.checkOwnSplits(cmd, g); err != nil {
			return nil, datasets.Entry{}, err
		}
		return g, datasets.Entry{Name: g.Name, Metric: datasets.DefaultMetric(d.path, g)}, nil
	case d.dataset == "":
		return nil, datasets.Entry{}, fmt.Errorf("no dataset: give --dataset NAME (%s) or --data PATH", strings.Join(datasets.Names(), ", "))
	}
	name := strings.ToLower(d.dataset)
	entry, err := datasets.Lookup(name)
	if err != nil {
		return nil, entry, err
	}
	g, err := datasets.Load(name, datasets.Options{DataDir: dataDirFlag(cmd), Offline: d.offline, Progress: d.progress()})
	if err == nil {
		err = d.user.checkOwnSplits(cmd, g)
	}
	return g, entry, err
}

// progress is where loading reports (a download's bar): stderr, or nowhere
// with --quiet.
func (d *dataFlags) progress() io.Writer {
	if d.quiet {
		return nil
	}
	return downloadProgress()
}

// parseSplits reads "0-9", "3" or "0,2,5-7" against n available splits.
// Its errors name the input and the entry at fault: a negative or missing
// number, a reversed range, a split the dataset does not have, a repeated
// split (which would count one split's result several times).
func parseSplits(s string, n int) ([]int, error) {
	if n == 0 {
		return nil, fmt.Errorf("the dataset has no splits")
	}
	if t := strings.TrimSpace(s); t == "" || strings.EqualFold(t, "all") {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("--splits %s: %s (the dataset has splits 0-%d)", flagValue(s), fmt.Sprintf(format, a...), n-1)
	}
	num := func(x, part string) (int, error) {
		if strings.HasPrefix(x, "-") || x == "" && strings.HasPrefix(part, "-") {
			return 0, bad("split numbers are ≥ 0")
		}
		if x == "" {
			return 0, bad("the range %s needs both ends, as in 0-4", flagValue(part))
		}
		v, err := strconv.Atoi(x)
		if err != nil || v < 0 {
			return 0, bad("%q is not a split number; write all, 3, 0-4 or 0,2,5-7", x)
		}
		return v, nil
	}
	var out []int
	seen := make([]bool, n)
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, bad("an empty entry")
		}
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := num(strings.TrimSpace(lo), part)
		if err != nil {
			return nil, err
		}
		b := a
		if isRange {
			if b, err = num(strings.TrimSpace(hi), part); err != nil {
				return nil, err
			}
		}
		switch {
		case a > b:
			return nil, bad("the range %s is reversed, write %d-%d", flagValue(part), b, a)
		case b >= n:
			return nil, bad("split %d does not exist", b)
		}
		for k := a; k <= b; k++ {
			if seen[k] {
				return nil, bad("split %d is repeated", k)
			}
			seen[k] = true
			out = append(out, k)
		}
	}
	return out, nil
}

// flagValue shows a flag's value in an error as the user typed it, quoted
// (Go syntax) only when it is empty or holds spaces or unprintable
// characters, so that the error stays one readable line.
func flagValue(s string) string {
	if q := strconv.Quote(s); s == "" || strings.ContainsAny(s, " \t") || q[1:len(q)-1] != s {
		return q
	}
	return s
}
