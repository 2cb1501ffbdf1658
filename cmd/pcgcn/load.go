package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
)

// dataFlags are the flags that choose a graph: a registry name or a path.
type dataFlags struct {
	dataset string
	path    string
	user    userGraphFlags
}

func (d *dataFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&d.dataset, "dataset", "", "a registry dataset, by `NAME` (list: pcgcn datasets)")
	cmd.Flags().StringVar(&d.path, "data", "", "path to your own graph (see docs/data-format.md) instead of --dataset")
	d.user.register(cmd)
}

// load resolves the graph and its registry entry (zero Entry for --data).
func (d *dataFlags) load(cmd *cobra.Command) (*graph.Graph, datasets.Entry, error) {
	switch {
	case d.dataset != "" && d.path != "":
		return nil, datasets.Entry{}, fmt.Errorf("give --dataset or --data, not both")
	case d.path != "":
		var o datasets.Options
		if err := d.user.apply(cmd, &o); err != nil {
			return nil, datasets.Entry{}, err
		}
		g, err := datasets.LoadPathWith(d.path, o)
		if err != nil {
			return nil, datasets.Entry{}, fmt.Errorf("--data %s: %w", d.path, err)
		}
		if err := d.user.checkOwnSplits(cmd, g); err != nil {
			return nil, datasets.Entry{}, err
		}
		return g, datasets.Entry{Name: g.Name, Metric: datasets.DefaultMetric(d.path, g)}, nil
	case d.dataset == "":
		return nil, datasets.Entry{}, fmt.Errorf("no dataset: give --dataset NAME or --data PATH")
	}
	name := strings.ToLower(d.dataset)
	entry, err := datasets.Lookup(name)
	if err != nil {
		return nil, entry, err
	}
	dir, _ := cmd.Flags().GetString("data-dir")
	g, err := datasets.Load(name, datasets.Options{DataDir: dir, Progress: os.Stderr})
	if err == nil {
		err = d.user.checkOwnSplits(cmd, g)
	}
	return g, entry, err
}

// parseSplits reads "0-9", "3" or "0,2,5-7" against n available splits.
func parseSplits(s string, n int) ([]int, error) {
	if n == 0 {
		return nil, fmt.Errorf("the dataset has no splits")
	}
	if s == "" || s == "all" {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("--splits %q: %q is not a split number", s, lo)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				return nil, fmt.Errorf("--splits %q: %q is not a split number", s, hi)
			}
		}
		if a < 0 || b >= n || a > b {
			return nil, fmt.Errorf("--splits %q: the dataset has splits 0-%d", s, n-1)
		}
		for k := a; k <= b; k++ {
			out = append(out, k)
		}
	}
	return out, nil
}
