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

// userGraphFlags prepare a graph given by path: random stratified splits
// for a graph without splits, and label remapping.
type userGraphFlags struct {
	splitRatio string
	numSplits  int
	remap      bool
}

const (
	splitRatioHelp = "`TRAIN,VAL,TEST` fractions of each class for the random stratified splits drawn for a graph without splits " +
		"(your own graph without splits.csv; a graph with splits keeps them); the default is the 60/20/20 of the Geom-GCN splits " +
		"the paper's datasets use, so that numbers compare with its tables; fractions summing to less than 1 leave the rest of each class out"
	numSplitsHelp = "number of random stratified splits drawn for a graph without splits (split k depends only on --seed and k)"
	remapHelp     = "number the labels used 0..k-1 in increasing order (labels {0,1,7} become classes 0,1,2; the mapping is printed, " +
		"in --json and in a saved model); without it empty classes are warned about, and a label making more classes than nodes, or than both 1000 and twice the labels used, is an error"
	metricHelp = "test and selection metric by `NAME`, accuracy or rocauc (ROC AUC; roc_auc is read too) (default: a registry dataset's own; for your own graph rocauc with two classes, " +
		"since binary tasks are mostly imbalanced and accuracy rewards predicting the majority class, and the heterophily benchmark scores its binary sets so; accuracy otherwise)"
)

func (u *userGraphFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&u.splitRatio, "split-ratio", "0.6,0.2,0.2", splitRatioHelp)
	fl.IntVar(&u.numSplits, "num-splits", 10, numSplitsHelp)
	fl.BoolVar(&u.remap, "remap-labels", false, remapHelp)
}

// spec parses --split-ratio and --num-splits into the random splits' spec,
// seeded with --seed when the command has it (else 42, train's default).
func (u *userGraphFlags) spec(cmd *cobra.Command) (*graph.SplitSpec, error) {
	seed := uint64(42)
	if cmd.Flags().Lookup("seed") != nil {
		seed, _ = cmd.Flags().GetUint64("seed")
	}
	s := graph.DefaultSplitSpec(seed)
	if u.numSplits < 1 || u.numSplits > graph.MaxRandomSplits {
		return nil, fmt.Errorf("--num-splits %d: want 1 to %d", u.numSplits, graph.MaxRandomSplits)
	}
	parts := strings.Split(u.splitRatio, ",")
	if len(parts) != 3 {
		return nil, fmt.Errorf("--split-ratio %q: want three fractions TRAIN,VAL,TEST such as 0.6,0.2,0.2", u.splitRatio)
	}
	var f [3]float64
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil, fmt.Errorf("--split-ratio %q: %q is not a number", u.splitRatio, p)
		}
		f[i] = v
	}
	s.Train, s.Val, s.Test, s.Num = f[0], f[1], f[2], u.numSplits
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("--split-ratio %q: %w", u.splitRatio, err)
	}
	return &s, nil
}

// apply sets o's random splits and label remapping from the flags.
func (u *userGraphFlags) apply(cmd *cobra.Command, o *datasets.Options) error {
	s, err := u.spec(cmd)
	if err != nil {
		return err
	}
	o.Splits, o.RemapLabels = s, u.remap
	return nil
}

// checkOwnSplits refuses --split-ratio or --num-splits given for a graph
// that has splits of its own: random splits replace none.
func (u *userGraphFlags) checkOwnSplits(cmd *cobra.Command, g *graph.Graph) error {
	if g.DrawnSplits != nil || len(g.Splits) == 0 {
		return nil
	}
	for _, name := range []string{"split-ratio", "num-splits"} {
		if cmd.Flags().Changed(name) {
			return fmt.Errorf("--%s: %s has %d splits of its own, and random splits are drawn only for a graph without splits",
				name, g.Name, len(g.Splits))
		}
	}
	return nil
}

// resolveMetric returns the metric a dataset is scored on: --metric when
// given, else the dataset's default (datasets.ResolveMetric, the one
// resolver the experiments runner uses too).
func resolveMetric(flag, name string, g *graph.Graph) (datasets.Metric, error) {
	var chosen datasets.Metric
	if flag != "" {
		var err error
		if chosen, err = datasets.ParseMetric(flag); err != nil {
			return "", fmt.Errorf("--metric: %w", err)
		}
	}
	var load func() (*graph.Graph, error)
	if g != nil {
		load = func() (*graph.Graph, error) { return g, nil }
	}
	m, err := datasets.ResolveMetric(chosen, name, load)
	if err != nil {
		return "", fmt.Errorf("--metric %s: %w", flagValue(flag), err)
	}
	return m, nil
}

// graphNotes describes what was done to a graph on loading, for train's
// output: how its splits were drawn and how its labels were remapped
// (nothing for a graph taken as its files give it).
func graphNotes(g *graph.Graph) []string {
	var out []string
	if g.DrawnSplits != nil {
		out = append(out, fmt.Sprintf("splits: %s, drawn because the graph has none", g.DrawnSplits))
	}
	if g.LabelIDs != nil {
		ids := make([]string, len(g.LabelIDs))
		for k, v := range g.LabelIDs {
			ids[k] = fmt.Sprintf("%d → %d", v, k)
		}
		out = append(out, fmt.Sprintf("labels: remapped to classes 0..%d (label → class: %s)", len(ids)-1, strings.Join(ids, ", ")))
	}
	return out
}

// warn writes each warning on w as one "warning: " line.
func warn(w io.Writer, warnings []string) {
	for _, s := range warnings {
		fmt.Fprintln(w, "warning:", s)
	}
}
