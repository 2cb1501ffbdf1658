package studies

import (
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/train"
)

// The settings studies give their cells (experiments.Cell.Opts) and the
// runner hooks that act on them: the engine keeps a cell's settings in its
// key and saved JSON and knows nothing of what they do.
const (
	// optDropClass removes a class's training labels (the missing-class
	// study): a class index, as train.ClassDrop.
	optDropClass = "drop_class"
	// optLabelsPerClass replaces the standard splits by random ones with
	// this many training labels per class (the label-rate study; see
	// labelRateVal).
	optLabelsPerClass = "labels_per_class"
	// optCollect keeps each split's per-node test outputs (the main table's
	// cells, for the homophily-bucket and label-distance studies).
	optCollect = "collect"
	// optEmbed keeps the 2-D points of the trained model's last hidden
	// representation and their measurements (the t-SNE study; see the
	// study's embed hook).
	optEmbed = "embed"
	// optBatch trains on mini-batches of sampled neighbourhoods: a
	// train.BatchOptions (the mini-batch study).
	optBatch = "batch"
)

// labelRateVal is the number of validation nodes drawn at random for the
// label-rate study's splits; every other node not used for training is a
// test node.
const labelRateVal = 500

// dropClass returns the class whose training labels c removes, or none.
func dropClass(c experiments.Cell) train.ClassDrop {
	var d train.ClassDrop
	c.Opt(optDropClass, &d)
	return d
}

// labelsPerClass returns c's training labels per class on random splits,
// or 0 for the standard splits.
func labelsPerClass(c experiments.Cell) int {
	var k int
	c.Opt(optLabelsPerClass, &k)
	return k
}

// flag reports whether c sets a true/false setting.
func flag(c experiments.Cell, name string) bool {
	var on bool
	return c.Opt(name, &on) && on
}

// batchOptions returns c's mini-batch setting, or nil for full batch.
func batchOptions(c experiments.Cell) *train.BatchOptions {
	var b train.BatchOptions
	if !c.Opt(optBatch, &b) {
		return nil
	}
	return &b
}

// prepare is the runner's Prepare hook: random label-rate splits, a
// dropped class and mini-batches, as the cell's settings ask. seed is the
// runner's seed as configured (the label-rate splits' seeds derive from
// it).
func prepare(seed uint64) func(c experiments.Cell, g *graph.Graph, opt *train.Options) (*graph.Graph, error) {
	return func(c experiments.Cell, g *graph.Graph, opt *train.Options) (*graph.Graph, error) {
		if k := labelsPerClass(c); k > 0 {
			var err error
			if g, err = withRandomSplits(g, k, c.Splits, seed); err != nil {
				return nil, err
			}
		}
		opt.DropClass = dropClass(c)
		opt.Batch = batchOptions(c)
		return g, nil
	}
}

// withRandomSplits returns a shallow copy of g whose splits are random
// label-rate splits (index k drawn with a seed derived from seed, perClass, k).
func withRandomSplits(g *graph.Graph, perClass int, splits []int, seed uint64) (*graph.Graph, error) {
	n := 0
	for _, k := range splits {
		n = max(n, k+1)
	}
	cp := g.ShallowCopy()
	cp.Splits = make([]graph.Split, n)
	for k := 0; k < n; k++ {
		sp, err := graph.RandomSplit(g, perClass, labelRateVal, train.SplitSeed(seed+uint64(perClass)*7919, k))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", g.Name, err)
		}
		cp.Splits[k] = sp
	}
	return cp, nil
}

// embedFunc maps an n×d embedding to n×2 points (t-SNE) and measurements
// of it (the silhouette score); the test nodes of the split are given too.
type embedFunc func(emb *tensor.Dense, y, test []int32) (*tensor.Dense, map[string]float64, error)

// outputs is the runner's Outputs hook: per-node test outputs for a cell
// that collects them, and an embedding's points and measurements for one
// that asks for them (through embed, nil when no study maps embeddings).
func outputs(threads int, embed embedFunc) func(c experiments.Cell, r *train.Result, sr *experiments.SplitResult) error {
	return func(c experiments.Cell, r *train.Result, sr *experiments.SplitResult) error {
		if flag(c, optCollect) {
			sr.Nodes = nodeOutputs(r, threads)
		}
		if !flag(c, optEmbed) {
			return nil
		}
		if embed == nil {
			return fmt.Errorf("cell asks for embeddings but no study maps them")
		}
		pts, extra, err := embedPoints(r, threads, embed)
		if err != nil {
			return err
		}
		sr.Points = pts
		if sr.Extra == nil {
			sr.Extra = map[string]float64{}
		}
		for k, v := range extra {
			sr.Extra[k] = v
		}
		return nil
	}
}

// embedPoints evaluates the trained model and maps its embedding to 2-D
// points.
func embedPoints(r *train.Result, threads int, embed embedFunc) ([][2]float32, map[string]float64, error) {
	t := autograd.NewTape(tensor.Exec{Threads: threads})
	t.SetNoGrad(true)
	out := r.Model.Forward(t)
	if out.Embedding == nil {
		return nil, nil, fmt.Errorf("model gives no embedding")
	}
	xy, extra, err := embed(out.Embedding.Value, r.Data.Graph.Y, r.Data.Test)
	if err != nil {
		return nil, nil, err
	}
	pts := make([][2]float32, xy.Rows)
	for i := range pts {
		pts[i] = [2]float32{xy.At(i, 0), xy.At(i, 1)}
	}
	return pts, extra, nil
}

// nodeOutputs evaluates the trained model and records test-node correctness.
func nodeOutputs(r *train.Result, threads int) *experiments.NodeOutputs {
	t := autograd.NewTape(tensor.Exec{Threads: threads})
	logits := train.Logits(t, r.Model)
	pred := train.Predict(logits)
	no := &experiments.NodeOutputs{Test: r.Data.Test, Correct: make([]bool, len(r.Data.Test))}
	for k, i := range r.Data.Test {
		no.Correct[k] = pred[i] == r.Data.Graph.Y[i]
	}
	return no
}
