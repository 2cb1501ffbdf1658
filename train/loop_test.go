package train

import (
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// TestTrainerStepsAsWiredByHand: a Trainer's epochs, full batch and
// mini-batch, give bit for bit the losses of the loop wired by hand as
// `pcgcn bench` did before the Trainer (the seed's children: model,
// dropout, batches), so bench and Run time and train the same steps.
func TestTrainerStepsAsWiredByHand(t *testing.T) {
	g, spec, cfg := texasGCN(t)
	for _, batch := range []*BatchOptions{nil, {Size: 32}} {
		seed := SplitSeed(42, 1)
		tr, err := NewTrainer(g, g.Splits[1], spec, cfg, TrainerOptions{Seed: seed, Threads: 2, Batch: batch})
		if err != nil {
			t.Fatal(err)
		}
		data := models.NewDataFor(g, g.Splits[1], cfg)
		r := rng.New(seed)
		m, err := spec.New(data, cfg, r.Child())
		if err != nil {
			t.Fatal(err)
		}
		adam := NewOptimizer(m, cfg)
		exec, stop := tensor.StartExec(2)
		tape := autograd.NewTape(exec)
		adam.Exec = exec
		tape.RNG = r.Child()
		var b *batcher
		if batch != nil {
			if b, err = newBatcher(g, data, m, spec.Name, batch, r.Child()); err != nil {
				t.Fatal(err)
			}
		}
		for epoch := range 5 {
			got, err := tr.Step()
			if err != nil {
				t.Fatal(err)
			}
			var want float64
			if b != nil {
				want, err = b.Epoch(tape, adam)
				if err != nil {
					t.Fatal(err)
				}
			} else {
				want = Step(tape, m, adam, data)
			}
			if got != want {
				t.Errorf("batch %v epoch %d: loss %v, by hand %v", batch, epoch, got, want)
			}
		}
		stop()
		tr.Close()
	}
}

// TestTrainerStepAllocatesNothing: a Trainer's full-batch epoch in the
// steady state makes no heap allocation, as the package function Step.
func TestTrainerStepAllocatesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts are not meaningful under -race")
	}
	g, err := datasets.Load("chameleon", datasets.Options{DataDir: datatest.Mirror(t), Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := models.NewRegistry().Get("pcgcn")
	cfg := spec.Preset("chameleon")
	tr, err := NewTrainer(g, g.Splits[0], spec, cfg, TrainerOptions{Seed: 1, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	for range 2 { // the tape's pools reach their size
		if _, err := tr.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if allocs := testing.AllocsPerRun(2, func() { tr.Step() }); allocs != 0 {
		t.Errorf("%.0f allocations per Trainer step, want none", allocs)
	}
}
