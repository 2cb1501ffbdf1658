package train

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/minibatch"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// historyModels are the models with a history (BatchOptions.History).
var historyModels = []string{"pcgcn", "gcn", "sage"}

// The batch loss with history (before a mean pass: the estimate
// P̂′(Z̃ − Z) + P̂(Z − H̄) + P·H̄ recorded on the tape, dropout on) has the
// gradient finite differences give, for a history that is not the
// operand.
func TestHistoryBatchLossGradient(t *testing.T) {
	g := smallCSBM(t, 0.3)
	for _, name := range historyModels {
		t.Run(name, func(t *testing.T) {
			spec, _ := models.NewRegistry().Get(name)
			cfg := spec.Preset("csbm")
			cfg.Base().Hidden = 8
			whole := models.NewDataFor(g, g.Splits[0], cfg)
			m, err := spec.New(whole, cfg, rng.New(1))
			if err != nil {
				t.Fatal(err)
			}
			b, err := newBatcher(g, whole, m, name, &BatchOptions{Size: 16, Fanouts: []int{2, 2}, History: HistoryVR}, rng.New(2))
			if err != nil {
				t.Fatal(err)
			}
			sample := b.sampler.Sample(whole.Train[:4], rng.New(3))
			mb := minibatch.Build(g, sample, false)
			d := models.NewBatchData(mb.Graph, mb.Graph.Splits[0], whole)
			b.history.Bind(sample)
			d.Agg = b.history.Layers()
			if err := b.model.Rebind(d); err != nil {
				t.Fatal(err)
			}
			// a history from other weights: a mean pass, committed, then
			// the weights moved
			Logits(autograd.NewTape(tensor.Serial), m)
			b.history.Commit()
			for _, p := range m.Params() {
				for i := range p.Value.Data {
					p.Value.Data[i] *= 1.1
				}
			}
			b.history.Bind(sample) // no mean pass for this batch
			ps := m.Params()
			inputs := make([]*tensor.Dense, len(ps))
			for i, p := range ps {
				inputs[i] = p.Value.Clone()
			}
			f := func(tp *autograd.Tape, params []*autograd.Var) *autograd.Var {
				for i, p := range ps {
					*p = *params[i]
				}
				tp.Training, tp.RNG = true, rng.New(5)
				out := m.Forward(tp)
				loss := tp.CrossEntropy(out.Logits, d.Graph.Y, d.Train)
				if out.Aux != nil {
					loss = tp.Add(loss, out.Aux)
				}
				return loss
			}
			res, err := autograd.GradCheck(f, inputs, 1e-3, 1e-3, 1e-2)
			if err != nil {
				t.Errorf("%v (max abs err %.3g)", err, res.MaxAbsErr)
			}
		})
	}
}

// Mini-batch training with history is the same bit for bit on 1 and 2
// threads, parameters included.
func TestHistoryIsDeterministic(t *testing.T) {
	g := smallCSBM(t, 0.3)
	for _, name := range historyModels {
		t.Run(name, func(t *testing.T) {
			spec, _ := models.NewRegistry().Get(name)
			sameOnThreads(t, name, true, func(threads int) (*Result, error) {
				o := batchOpts(threads, 64, 3, 2)
				o.Epochs = 5
				o.Batch.History = HistoryVR
				return Run(g, 0, spec, spec.Preset("csbm"), o)
			})
		})
	}
}

// On a heterophilous toy graph whose neighbourhoods the fanouts thin to a
// quarter, PCGCN trained on mini-batches with history ends within 3 points
// of full batch on test accuracy (sampling alone: the difference this
// test prints beside it).
func TestHistoryMiniBatchNearFullBatch(t *testing.T) {
	g := csbmGraph(t, 600, 0.2)
	spec, _ := models.NewRegistry().Get("pcgcn")
	run := func(b *BatchOptions) float64 {
		o := DefaultOptions()
		o.Epochs, o.Patience, o.Threads, o.Batch = 100, 0, 1, b
		r, err := Run(g, 0, spec, spec.Preset("csbm"), o)
		if err != nil {
			t.Fatal(err)
		}
		return r.Test
	}
	full := run(nil)
	vr := run(&BatchOptions{Size: 64, Fanouts: []int{2, 2}, History: HistoryVR})
	none := run(&BatchOptions{Size: 64, Fanouts: []int{2, 2}})
	t.Logf("test accuracy: full batch %.3f, mini-batch with history %.3f, without %.3f", full, vr, none)
	if math.Abs(vr-full) > 0.03 {
		t.Errorf("mini-batch with history %.3f, full batch %.3f: more than 3 points apart", vr, full)
	}
}

// With every neighbour drawn, the mean pass's estimate and the training
// pass's (without dropout) are the whole graph's product whatever the
// history holds: a batch of every training node with history gives its
// seeds the whole graph's logits.
func TestHistoryWithAllNeighboursIsExact(t *testing.T) {
	g := smallCSBM(t, 0.3)
	for _, name := range historyModels {
		t.Run(name, func(t *testing.T) {
			spec, cfg := csbmPresetWithoutDropout(name)
			whole := models.NewDataFor(g, g.Splits[0], cfg)
			m, err := spec.New(whole, cfg, rng.New(1))
			if err != nil {
				t.Fatal(err)
			}
			want := Logits(autograd.NewTape(tensor.Serial), m).Clone()
			b, err := newBatcher(g, whole, m, name, &BatchOptions{Size: 16, Fanouts: []int{minibatch.AllNeighbours, minibatch.AllNeighbours}, History: HistoryVR}, rng.New(2))
			if err != nil {
				t.Fatal(err)
			}
			for round := range 2 { // an empty history, then the first batch's
				// every training node a seed: PCGCN's prototypes are the seeds' means
				sample := b.sampler.Sample(whole.Train, rng.New(3))
				mb := minibatch.Build(g, sample, false)
				d := models.NewBatchData(mb.Graph, mb.Graph.Splits[0], whole)
				b.history.Bind(sample)
				d.Agg = b.history.Layers()
				if err := b.model.Rebind(d); err != nil {
					t.Fatal(err)
				}
				tp := autograd.NewTape(tensor.Serial)
				Logits(tp, m) // the mean pass
				tp.Reset()
				tp.Training, tp.RNG = true, rng.New(4)
				got := m.Forward(tp).Logits.Value
				b.history.Commit()
				for k := range sample.Seeds {
					for j := 0; j < got.Cols; j++ {
						if d := math.Abs(float64(got.At(k, j) - want.At(int(sample.Nodes[k]), j))); d > 1e-4 {
							t.Fatalf("round %d seed %d logit %d: batch %g, whole graph %g", round, k, j, got.At(k, j), want.At(int(sample.Nodes[k]), j))
						}
					}
				}
			}
		})
	}
}
