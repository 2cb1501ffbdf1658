package experiments

import (
	"sync"

	"github.com/pcgcn/pcgcn/graph"
)

// GraphCache is the one cache of datasets' graphs of a run: each dataset is
// opened once, with its fingerprint (the Data of a result's key), and a
// dataset that failed to open is not tried again. The studies' cells,
// sections and pages and the runner's store all read graphs through one (a
// graph caches its own Â, graph.Graph.AHat), so one reproduce run loads a
// dataset once. It is safe for concurrent use.
type GraphCache struct {
	open func(name string) (*graph.Graph, error)

	mu     sync.Mutex
	graphs map[string]*graph.Graph
	prints map[string]string
	errs   map[string]error
}

// NewGraphCache returns an empty cache opening datasets with open (a
// registry name or a path; datasets.Open with the run's options).
func NewGraphCache(open func(name string) (*graph.Graph, error)) *GraphCache {
	return &GraphCache{open: open, graphs: map[string]*graph.Graph{}, prints: map[string]string{}, errs: map[string]error{}}
}

// Graph returns a dataset's graph, opening it on first use.
func (gc *GraphCache) Graph(name string) (*graph.Graph, error) {
	gc.mu.Lock()
	defer gc.mu.Unlock()
	if g, ok := gc.graphs[name]; ok {
		return g, nil
	}
	if err := gc.errs[name]; err != nil {
		return nil, err
	}
	g, err := gc.open(name)
	if err != nil {
		gc.errs[name] = err
		return nil, err
	}
	gc.graphs[name], gc.prints[name] = g, g.Fingerprint()
	return g, nil
}

// Fingerprint returns the fingerprint of a dataset's graph (see Result.Data).
func (gc *GraphCache) Fingerprint(name string) (string, error) {
	if _, err := gc.Graph(name); err != nil {
		return "", err
	}
	gc.mu.Lock()
	defer gc.mu.Unlock()
	return gc.prints[name], nil
}
