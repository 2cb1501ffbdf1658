package datasets

import (
	"fmt"

	"github.com/pcgcn/pcgcn/graph"
)

// ResolveMetric is the one resolution of the metric a dataset is scored on,
// for the command line (train, tune, reproduce --metric) and the experiments
// engine alike: chosen when it is not empty, else DefaultMetric. load gives
// the dataset's graph and is called only when it is needed: for a chosen
// ROC AUC, which needs two classes, and for a dataset given by path without
// a chosen metric (a registry dataset's metric is its entry's). load may be
// nil when no graph can be had (a chosen metric is then not checked).
func ResolveMetric(chosen Metric, name string, load func() (*graph.Graph, error)) (Metric, error) {
	switch {
	case chosen == ROCAUC && load != nil:
		g, err := load()
		if err != nil {
			return "", err
		}
		if g != nil && g.NumClasses != 2 {
			return "", fmt.Errorf("%s has %d classes; ROC AUC needs two", g.Name, g.NumClasses)
		}
		return chosen, nil
	case chosen != "":
		return chosen, nil
	}
	if e, err := Lookup(name); err == nil {
		return e.Metric, nil
	}
	var g *graph.Graph
	if load != nil {
		var err error
		if g, err = load(); err != nil {
			return "", err
		}
	}
	return DefaultMetric(name, g), nil
}
