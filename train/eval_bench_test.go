package train

import (
	"fmt"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// BenchmarkEvaluate times one training step and one evaluation pass of a
// Trainer (2 threads, parked workers), so that the share of the evaluation
// in an epoch of train.Run can be read off.
func BenchmarkEvaluate(b *testing.B) {
	for _, ds := range []string{"texas", "chameleon"} {
		g, err := datasets.Load(ds, datasets.Options{DataDir: datatest.Mirror(b), Offline: true})
		if err != nil {
			b.Fatal(err)
		}
		for _, name := range []string{"pcgcn", "gcn"} {
			spec, _ := models.NewRegistry().Get(name)
			cfg := spec.Preset(ds)
			tr, err := NewTrainer(g, g.Splits[0], spec, cfg, TrainerOptions{Seed: 1, Threads: 2})
			if err != nil {
				b.Fatal(err)
			}
			tr.Step()
			tr.Evaluate(datasets.Accuracy, false)
			b.Run(fmt.Sprintf("%s/%s/step", ds, name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					tr.Step()
				}
			})
			b.Run(fmt.Sprintf("%s/%s/eval", ds, name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					tr.Evaluate(datasets.Accuracy, false)
				}
			})
			tr.Close()
		}
	}
}
