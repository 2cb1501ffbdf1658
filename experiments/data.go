package experiments

import (
	"fmt"
	"path/filepath"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/train"
)

// The runner's store: built from its fields on each use (they may change
// between calls), over one graph cache kept for the runner's life.

// store returns the runner's store of its KeyDir, under its key.
func (rn *Runner) store() *Store {
	opt := rn.options()
	return &Store{Dir: rn.KeyDir(), Seed: opt.Seed, Epochs: opt.Epochs, Patience: opt.Patience,
		Metrics: rn.Metrics, Graphs: rn.graphCache(), Config: func(c Cell) (models.Config, error) {
			_, cfg, err := rn.resolve(c)
			return cfg, err
		}}
}

// graphCache returns Graphs, making one that opens datasets with Data when
// it is nil.
func (rn *Runner) graphCache() *GraphCache {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.Graphs == nil {
		data := rn.Data
		rn.Graphs = NewGraphCache(func(name string) (*graph.Graph, error) { return datasets.Open(name, data) })
	}
	return rn.Graphs
}

// Graph returns a dataset's graph from the runner's graph cache (see
// Graphs): the studies read their graphs through it, so one run opens a
// dataset once.
func (rn *Runner) Graph(name string) (*graph.Graph, error) { return rn.graphCache().Graph(name) }

// Path returns where a cell's result is saved: <KeyDir>/<study>/<key>.json
// (see Store.Path).
func (rn *Runner) Path(c Cell) string { return rn.store().Path(c) }

// KeyDir is the directory of the runner's cells: Dir itself for the
// protocol's base seed (train.DefaultOptions, 42), Dir/seed<N> for another
// one, so that a run with another seed saves its cells side by side with
// the base seed's and never in their place. The training budget is kept
// apart the same way by the callers that change it (tune's
// <results>/epochs<E>-patience<P>, reproduce's <results>/quick): a Dir holds
// one budget, and a result of another budget found in it is never replaced
// by one with fewer splits (see need).
func (rn *Runner) KeyDir() string {
	if s := rn.options().Seed; s != train.DefaultOptions().Seed {
		return filepath.Join(rn.Dir, fmt.Sprintf("seed%d", s))
	}
	return rn.Dir
}

// LoadExact returns the saved result of exactly c as the runner would train
// it now, or nil (see Store.Exact). Unlike Load it makes no selection: for a
// cell with candidates it is the cell itself (the main table's preset).
func (rn *Runner) LoadExact(c Cell) *Result { return rn.store().Exact(c) }
