package experiments

import (
	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
)

// metric returns the training metric ("accuracy" or "rocauc") of a
// dataset: Metrics' choice for it, else datasets.DefaultMetric (the
// registry's metric, or for a graph given by path ROC AUC with two classes
// and accuracy otherwise). g may be nil for a registry dataset; for a path
// it is loaded when nil.
func (rn *Runner) metric(name string, g *graph.Graph) (string, error) {
	if m, ok := rn.Metrics[name]; ok {
		return m.TrainName(), nil
	}
	if e, err := datasets.Lookup(name); err == nil {
		return e.Metric.TrainName(), nil
	}
	if g == nil {
		var err error
		if g, err = rn.graph(name); err != nil {
			return "", err
		}
	}
	return datasets.DefaultMetric(name, g).TrainName(), nil
}

// sameMetric reports whether a saved result was scored on the metric its
// cell would be trained on now, so that changing --metric (or a graph's
// class count) never reuses results of the other metric.
func (rn *Runner) sameMetric(c Cell, saved string) bool {
	m, err := rn.metric(c.Dataset, nil)
	return err == nil && m == saved
}
