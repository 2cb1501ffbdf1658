package train

import (
	"errors"
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/minibatch"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/optim"
	"github.com/pcgcn/pcgcn/rng"
)

// BatchOptions switch training to mini-batches of sampled neighbourhoods
// (package minibatch): every epoch the training nodes are shuffled and cut
// into batches of Size seeds, each batch is a step on the seeds' sampled
// neighbourhood, and the model is evaluated on the whole graph after each
// epoch, as in full-batch training.
type BatchOptions struct {
	// Size is the number of seed (training) nodes per batch.
	Size int `json:"size"`
	// Fanouts are the neighbours sampled per node at each hop, seeds
	// outwards (minibatch.AllNeighbours: all). Empty: DefaultFanouts for
	// the model's hops. Extra entries beyond the model's hops are ignored.
	Fanouts []int `json:"fanouts,omitempty"`
	// EvalBlock is the number of nodes per block of the layer-wise
	// evaluation of models with one (models.BlockEvaluator: PCGCN, GCN,
	// GraphSAGE), which gives the whole-graph evaluation's logits bit for
	// bit while holding two layers' rows instead of every activation; 0:
	// DefaultEvalBlock; negative: evaluate the whole graph at once. Not part
	// of a result's key: the numbers do not depend on it.
	EvalBlock int `json:"-"`
	// EvalDir, when set, keeps the layer-wise evaluation's rows in
	// memory-mapped files in a temporary directory under it (removed after
	// each evaluation) instead of on the heap, their pages given back as
	// they are done with, for graphs whose n×h layers do not fit in memory.
	EvalDir string `json:"-"`
	// History is the variance reduction of the sampled aggregation:
	// HistoryNone ("" reads as it) or HistoryVR, historical embeddings as
	// VR-GCN uses them (minibatch.History), for PCGCN, GCN and GraphSAGE.
	History string `json:"history,omitempty"`
}

// The values of BatchOptions.History.
const (
	// HistoryNone aggregates with the batch's sampled Â alone.
	HistoryNone = "none"
	// HistoryVR adds historical embeddings as a control variate (VR-GCN).
	HistoryVR = "vr"
)

// ErrUnknownHistory is returned for a BatchOptions.History that is none of
// HistoryNone and HistoryVR.
var ErrUnknownHistory = errors.New("unknown history (want none or vr)")

// vr reports whether the options ask for historical embeddings.
func (b *BatchOptions) vr() bool { return b.History == HistoryVR }

// DefaultFanouts returns the fanouts used when BatchOptions.Fanouts is
// empty: 15 neighbours at the first hop and 10 at each further one, the
// sizes of PyG's and GraphSAGE's examples for two-layer models.
func DefaultFanouts(hops int) []int {
	f := make([]int, hops)
	for i := range f {
		f[i] = 10
	}
	if hops > 0 {
		f[0] = 15
	}
	return f
}

// validate checks the batch options.
func (b *BatchOptions) validate() error {
	if b.Size < 1 {
		return fmt.Errorf("batch size must be ≥ 1, got %d", b.Size)
	}
	for _, f := range b.Fanouts {
		if f < minibatch.AllNeighbours || f == 0 {
			return fmt.Errorf("fanout must be ≥ 1 or %d (all neighbours), got %d", minibatch.AllNeighbours, f)
		}
	}
	if b.History != "" && b.History != HistoryNone && b.History != HistoryVR {
		return fmt.Errorf("history %q: %w", b.History, ErrUnknownHistory)
	}
	return nil
}

// batcher runs the mini-batch epochs of one split (a Trainer's, when its
// TrainerOptions.Batch is set).
type batcher struct {
	g       *graph.Graph
	whole   *models.Data
	model   models.Batched
	sampler *minibatch.Sampler
	size    int
	rows    bool // the batches carry adjacency rows (LINKX)
	rng     *rng.RNG
	history *minibatch.History // nil without variance reduction
}

// newBatcher prepares mini-batch training of model (of the registry name
// given, for messages), built on whole, the data of the whole graph g;
// batches are drawn from r.
func newBatcher(g *graph.Graph, whole *models.Data, model models.Model, name string, o *BatchOptions, r *rng.RNG) (*batcher, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	bm, ok := model.(models.Batched)
	if !ok {
		return nil, fmt.Errorf("%s: %w (models with one: gcn, sage, mlp, linkx, pcgcn)", name, models.ErrNoBatchMode)
	}
	hops := bm.Hops()
	fan := o.Fanouts
	if len(fan) == 0 {
		fan = DefaultFanouts(hops)
	}
	if len(fan) < hops {
		return nil, fmt.Errorf("%s reads %d hops of neighbours, %d fanouts given", name, hops, len(fan))
	}
	fan = fan[:hops]
	if hops == 0 {
		fan = []int{0}
	}
	s, err := minibatch.NewSampler(g.Adj, fan)
	if err != nil {
		return nil, err
	}
	_, rows := model.(*models.LINKX)
	b := &batcher{g: g, whole: whole, model: bm, sampler: s, size: o.Size, rows: rows, rng: r}
	if o.vr() {
		if b.history, err = newHistory(g, model, name, hops); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// newHistory returns the historical embeddings of a model with history:
// over Â for PCGCN and GCN, over D⁻¹A for GraphSAGE.
func newHistory(g *graph.Graph, model models.Model, name string, hops int) (*minibatch.History, error) {
	switch model.(type) {
	case *models.PCGCN, *models.GCN:
		return minibatch.NewHistory(g.Adj, g.AHat(), minibatch.GCNNorm, hops)
	case *models.SAGE:
		return minibatch.NewHistory(g.Adj, minibatch.MeanAdjacency(g.Adj), minibatch.MeanAgg, hops)
	}
	return nil, fmt.Errorf("%s: history %s: %w (models with one: pcgcn, gcn, sage)", name, HistoryVR, models.ErrNoBatchMode)
}

// Epoch runs one pass over the training nodes, a step of opt per batch, and
// leaves the model bound to the whole graph for evaluation. It returns the
// mean training loss over the batches, weighted by their seeds.
func (b *batcher) Epoch(tape *autograd.Tape, opt optim.Optimizer) (float64, error) {
	var sum float64
	var seeds int
	for _, batch := range minibatch.Seeds(b.whole.Train, b.size, b.rng) {
		sample := b.sampler.Sample(batch, b.rng)
		mb := minibatch.Build(b.g, sample, b.rows)
		b.g.ReleaseAdj() // a mapped adjacency (graphio.ReadCSR): only the rows a batch read were resident
		d := models.NewBatchData(mb.Graph, mb.Graph.Splits[0], b.whole)
		d.Rows = mb.Rows
		if b.history != nil {
			b.history.Bind(sample)
			d.Agg = b.history.Layers()
		}
		if err := b.model.Rebind(d); err != nil {
			return 0, err
		}
		if b.history != nil {
			// the mean pass: the batch's dropout-free activations, which
			// the step's estimate subtracts and the history keeps
			Logits(tape, b.model)
		}
		sum += Step(tape, b.model, opt, d) * float64(len(batch))
		if b.history != nil {
			b.history.Commit()
		}
		seeds += len(batch)
		tape.Trim() // the next batch has other shapes: no pool to keep
	}
	return sum / float64(seeds), b.model.Rebind(b.whole)
}
