package train

import (
	"runtime"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/optim"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// Trainer is the training loop of one split's model: the model built on the
// split's data, its optimiser (NewOptimizer), the tape on a pool of parked
// kernel workers (tensor.StartExec) and, for mini-batch training, the
// batches. Run drives it epoch by epoch with early stopping; `pcgcn bench`
// times its Step. Close gives the workers back.
type Trainer struct {
	// Model is the model being trained.
	Model models.Model
	// Data is the split's data the model is built on.
	Data *models.Data

	g       *graph.Graph
	tape    *autograd.Tape
	opt     *optim.Adam
	batches *batcher
	batch   *BatchOptions // mini-batch training's options, nil for full batch
	stop    func()
}

// TrainerOptions say how NewTrainer sets up the loop.
type TrainerOptions struct {
	// Seed is the split's seed (SplitSeed of the base seed and the split):
	// the model's initialisation, the dropout masks and the batches are
	// drawn from its children, in that order.
	Seed uint64
	// Threads is the number of kernel goroutines (0: GOMAXPROCS).
	Threads int
	// Batch, when set, makes an epoch a pass over mini-batches of sampled
	// neighbourhoods (see BatchOptions); nil: one full-batch step.
	Batch *BatchOptions
}

// NewTrainer builds the model of spec and cfg (validated by the caller) on
// split of g and sets up its training loop.
func NewTrainer(g *graph.Graph, split graph.Split, spec models.Spec, cfg models.Config, o TrainerOptions) (*Trainer, error) {
	data := models.NewDataFor(g, split, cfg)
	seed := rng.New(o.Seed)
	model, err := spec.New(data, cfg, seed.Child())
	if err != nil {
		return nil, err
	}
	adam := NewOptimizer(model, cfg)
	exec, stop := tensor.StartExec(o.Threads)
	tape := autograd.NewTape(exec)
	adam.Exec = tape.Exec
	tape.RNG = seed.Child()
	t := &Trainer{Model: model, Data: data, g: g, tape: tape, opt: adam, stop: stop}
	if o.Batch != nil {
		if t.batches, err = newBatcher(g, data, model, spec.Name, o.Batch, seed.Child()); err != nil {
			stop()
			return nil, err
		}
		g.X.ReleaseRows(0, g.N) // what preparing the whole graph's data read
		t.batch = o.Batch
	}
	return t, nil
}

// Step runs one training epoch, a full-batch step (the package function
// Step, which allocates nothing in the steady state) or a pass over the
// mini-batches, and returns its training loss (the mean over the batches).
func (t *Trainer) Step() (float64, error) {
	if t.batches != nil {
		return t.batches.Epoch(t.tape, t.opt)
	}
	return Step(t.tape, t.Model, t.opt, t.Data), nil
}

// Evaluation is the outcome of one evaluation pass, each metric in [0,1].
type Evaluation struct {
	// Train is the training nodes' metric, computed only when asked for
	// (the progress report: the protocol never reads it).
	Train float64
	// Val and Test are the validation and test metric.
	Val, Test float64
	// TestAccuracy is the test accuracy (Test when the metric is accuracy).
	TestAccuracy float64
	// ValLoss is the validation cross-entropy, which breaks ties of Val.
	ValLoss float64
}

// Evaluate runs the model on the whole graph without dropout and without
// recording and scores it by metric (withTrain: the training nodes too).
// After mini-batch epochs it first collects the batches' garbage, so that
// the peak memory is the evaluation's, not the evaluation's on top of the
// batches', and runs the model's layer-wise evaluation in blocks of nodes
// when it has one (evalblocked.go: the same logits, bit for bit).
func (t *Trainer) Evaluate(metric datasets.Metric, withTrain bool) Evaluation {
	if t.batches != nil {
		runtime.GC()
	}
	var ev Evaluation
	if logits, ok := t.blockedLogits(); ok {
		ev = score(logits, t.Data, metric, withTrain)
	} else {
		ev = evaluate(t.tape, t.Model, t.Data, metric, withTrain)
	}
	t.g.X.ReleaseRows(0, t.g.N) // evaluation read every row
	if t.batches != nil {
		t.tape.Trim() // the whole graph's buffers: no batch reuses them
		runtime.GC()
	}
	return ev
}

// Close releases the tape's buffers and stops the kernel workers; the
// model stays usable (its parameters are its own).
func (t *Trainer) Close() {
	t.tape.Reset()
	t.stop()
}
