package experiments

// The runner's datasets: loaded once, with their fingerprint and metric (a
// graph caches its own Â, graph.Graph.AHat).

import (
	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
)

// graph returns a dataset's graph, loading each dataset once per runner
// (and trying a dataset that failed to load only once); it also records the
// graph's fingerprint (see Result.Data).
func (rn *Runner) graph(name string) (*graph.Graph, error) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.graphs == nil {
		rn.graphs, rn.loadErr = map[string]*graph.Graph{}, map[string]error{}
		rn.prints = map[string]string{}
	}
	if g, ok := rn.graphs[name]; ok {
		return g, nil
	}
	if err := rn.loadErr[name]; err != nil {
		return nil, err
	}
	g, err := datasets.Open(name, rn.Data)
	if err != nil {
		rn.loadErr[name] = err
		return nil, err
	}
	rn.graphs[name], rn.prints[name] = g, g.Fingerprint()
	return g, nil
}

// fingerprint returns the fingerprint of a dataset (see Result.Data).
func (rn *Runner) fingerprint(name string) (string, error) {
	if _, err := rn.graph(name); err != nil {
		return "", err
	}
	rn.mu.Lock()
	defer rn.mu.Unlock()
	return rn.prints[name], nil
}

// metric returns the metric of a dataset: Metrics' choice for it, else its
// default (datasets.ResolveMetric, the one resolver the command line uses
// too). g may be nil; it is loaded only when the resolution needs it.
func (rn *Runner) metric(name string, g *graph.Graph) (datasets.Metric, error) {
	load := func() (*graph.Graph, error) {
		if g != nil {
			return g, nil
		}
		return rn.graph(name)
	}
	return datasets.ResolveMetric(rn.Metrics[name], name, load)
}

// sameMetric reports whether a saved result was scored on the metric its
// cell would be trained on now, so that changing --metric (or a graph's
// class count) never reuses results of the other metric.
func (rn *Runner) sameMetric(c Cell, saved datasets.Metric) bool {
	m, err := rn.metric(c.Dataset, nil)
	return err == nil && m == saved
}
