package train

import (
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/testkit/datatest"
	"github.com/pcgcn/pcgcn/testkit/graphtest"
)

// blockedCase is a model configuration the blocked evaluation must match.
type blockedCase struct {
	model string
	sets  map[string]string
}

func blockedCases() []blockedCase {
	return []blockedCase{
		{"pcgcn", nil},
		{"pcgcn", map[string]string{"bmode": "hard", "layers": "3"}},
		{"pcgcn", map[string]string{"bmode": "ste", "layers": "1"}},
		{"pcgcn", map[string]string{"protos": "layer", "alpha_sigmoid": "true", "alpha_init": "0.3"}},
		{"pcgcn", map[string]string{"separate_proto_encoder": "true", "no_mp": "true"}},
		{"pcgcn", map[string]string{"no_hom_p": "true"}},
		{"pcgcn", map[string]string{"no_het_p": "true", "directed": "true"}},
		{"gcn", nil},
		{"gcn", map[string]string{"layers": "3"}},
		{"gcn", map[string]string{"layers": "1"}},
		{"sage", nil},
		{"sage", map[string]string{"layers": "3"}},
		{"sage", map[string]string{"layers": "1"}},
	}
}

// checkBlockedSame trains each case for two mini-batch epochs on g and
// compares the blocked evaluation's logits, for several block sizes and
// both stores, with the whole-graph evaluation's, bit for bit.
func checkBlockedSame(t *testing.T, g *graph.Graph, split graph.Split) {
	t.Helper()
	for _, c := range blockedCases() {
		name := fmt.Sprintf("%s %v", c.model, c.sets)
		spec, err := models.NewRegistry().Get(c.model)
		if err != nil {
			t.Fatal(err)
		}
		cfg := spec.Preset(g.Name)
		for k, v := range c.sets {
			if err := models.SetOption(cfg, k, v); err != nil {
				t.Fatal(err)
			}
		}
		bo := &BatchOptions{Size: max(len(split.Train)/3, 1), Fanouts: []int{3, 2, 2}}
		tr, err := NewTrainer(g, split, spec, cfg, TrainerOptions{Seed: 5, Threads: 2, Batch: bo})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for range 2 {
			if _, err := tr.Step(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		want := slices.Clone(Logits(tr.tape, tr.Model).Data)
		for _, size := range []int{1, 7, 64, g.N, 2 * g.N} {
			for _, dir := range []string{"", t.TempDir()} {
				bo.EvalBlock, bo.EvalDir = size, dir
				got, ok := tr.blockedLogits()
				if !ok {
					t.Fatalf("%s: no blocked evaluation", name)
				}
				for i, w := range want {
					if got.Data[i] != w {
						t.Fatalf("%s, blocks of %d (dir %q): logit %d (node %d) = %v, whole graph %v", name, size, dir, i, i/got.Cols, got.Data[i], w)
					}
				}
				if dir != "" {
					if left, _ := os.ReadDir(dir); len(left) != 0 {
						t.Fatalf("%s: %d files left in the evaluation's directory", name, len(left))
					}
				}
			}
		}
		tr.Close()
	}
}

func TestBlockedEvaluationSameLogitsToy(t *testing.T) {
	for _, sparse := range []bool{false, true} {
		g := graphtest.Toy(t, 90, sparse, 3)
		checkBlockedSame(t, g, g.Splits[0])
	}
}

func TestBlockedEvaluationSameLogitsCSBM(t *testing.T) {
	g := smallCSBM(t, 0.3)
	checkBlockedSame(t, g, g.Splits[0])
}

func TestBlockedEvaluationSameLogitsTexas(t *testing.T) {
	g, err := datasets.Load("texas", datasets.Options{DataDir: datatest.Mirror(t), Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	checkBlockedSame(t, g, g.Splits[0])
}

// A configuration without a blocked evaluation (a switch naming nodes of
// the whole graph) has no batch mode either; a full-batch trainer and
// EvalBlock < 0 evaluate the whole graph.
func TestBlockedEvaluationOnlyWhenAsked(t *testing.T) {
	g := graphtest.Toy(t, 60, false, 4)
	spec, _ := models.NewRegistry().Get("gcn")
	tr, err := NewTrainer(g, g.Splits[0], spec, spec.Preset("toy"), TrainerOptions{Seed: 1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if _, ok := tr.blockedLogits(); ok {
		t.Error("full batch: blocked evaluation used")
	}
	tr.batch = &BatchOptions{Size: 10, EvalBlock: -1}
	if _, ok := tr.blockedLogits(); ok {
		t.Error("EvalBlock -1: blocked evaluation used")
	}
	tr.batch.EvalBlock = 0
	if _, ok := tr.blockedLogits(); !ok {
		t.Error("EvalBlock 0: no blocked evaluation")
	}
}
