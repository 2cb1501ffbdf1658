package studies

import "github.com/pcgcn/pcgcn/experiments"

// A study that needs something of the engine per cell gives its cells a
// setting (experiments.Cell.WithOpt; the engine keeps it in the cell's key
// and saved JSON and reads none) and acts on it in its own file through its
// prepare and outputs hooks (see study): the label-rate study's random
// splits (labelrate.go), the missing-class study's dropped class
// (missingclass.go), the mini-batch study's batches (minibatch.go), the
// main table's per-node outputs (maintable.go), the t-SNE study's embedding
// (tsne.go).

// flag reports whether c sets a true/false setting.
func flag(c experiments.Cell, name string) bool {
	var on bool
	return c.Opt(name, &on) && on
}
