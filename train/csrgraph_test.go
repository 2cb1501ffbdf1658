package train

import (
	"runtime"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/graphio"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/synth"
)

// A graph whose adjacency is mapped from its CSR files (graphio.ReadCSR)
// trains the same numbers, epoch by epoch, as the graph built from its
// edges, full batch and in mini-batches (whose sampler reads the mapped
// rows and whose evaluation runs in blocks over rows kept in files).
func TestMappedCSRGraphTrainsTheSameNumbers(t *testing.T) {
	gen, err := synth.Generate(synth.CSBM{Nodes: 500, AvgDegree: 8, Classes: 3, Homophily: 0.3, Features: 8, Signal: 1.5, Seed: 9,
		Splits: graph.SplitSpec{Train: 0.5, Val: 0.25, Test: 0.25, Num: 1, Seed: 9}})
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	plainDir, csrDir := base+"/plain", base+"/csr"
	if err := gen.Write(plainDir); err != nil {
		t.Fatal(err)
	}
	spec := gen.NPYGraph()
	spec.CSR = true
	if err := graphio.WriteNPYGraph(csrDir, spec); err != nil {
		t.Fatal(err)
	}
	load := func(dir string) *graph.Graph {
		g, err := datasets.LoadPathWith(dir, datasets.Options{MapFeatures: true})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	plain, mapped := load(plainDir), load(csrDir)
	if mapped.AdjBacking == nil && runtime.GOOS == "linux" {
		t.Fatal("the CSR graph's adjacency is not mapped")
	}
	if plain.AdjBacking != nil {
		t.Fatal("the edge-list graph has a mapped adjacency")
	}
	for _, name := range []string{"pcgcn", "gcn", "sage"} {
		for _, batch := range []*BatchOptions{nil, {Size: 60, Fanouts: []int{5, 3}, EvalBlock: 37, EvalDir: t.TempDir()}} {
			run := func(g *graph.Graph) (*Result, []Progress) {
				spec, _ := models.NewRegistry().Get(name)
				o := DefaultOptions()
				o.Epochs, o.Patience, o.Threads, o.Batch = 4, 0, 2, batch
				var ps []Progress
				o.Progress = func(p Progress) { ps = append(ps, p) }
				r, err := Run(g, 0, spec, spec.Preset("csbm"), o)
				if err != nil {
					t.Fatal(err)
				}
				return r, ps
			}
			a, pa := run(plain)
			b, pb := run(mapped)
			if a.Val != b.Val || a.Test != b.Test || a.BestEpoch != b.BestEpoch || len(pa) != 4 || len(pb) != 4 {
				t.Fatalf("%s (batch %v): mapped graph %+v, in memory %+v", name, batch != nil, b, a)
			}
			for i := range pa {
				if pa[i].Loss != pb[i].Loss || pa[i].Val != pb[i].Val || pa[i].ValLoss != pb[i].ValLoss {
					t.Fatalf("%s (batch %v), epoch %d: mapped %+v, in memory %+v", name, batch != nil, i+1, pb[i], pa[i])
				}
			}
		}
	}
}
