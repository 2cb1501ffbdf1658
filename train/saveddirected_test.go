package train

import (
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// TestLoadKeepsTheSavedGraph: a model trained on the symmetrised graph of a
// graph that keeps its links' direction (directed=false, which the saved
// config.json leaves out) is rebuilt on that graph, not on the out-links
// its dataset's preset now defaults to: GCNII on Texas (its preset is
// directed) and PCGCN on chameleon-directed (directed by default since
// issue 35). The loaded model gives the saved model's probabilities.
func TestLoadKeepsTheSavedGraph(t *testing.T) {
	reg := models.NewRegistry()
	for _, tc := range []struct{ model, dataset string }{{"gcnii", "texas"}, {"pcgcn", "chameleon-directed"}} {
		t.Run(tc.model+"/"+tc.dataset, func(t *testing.T) {
			g, err := datasets.Load(tc.dataset, datasets.Options{DataDir: datatest.Mirror(t), Offline: true})
			if err != nil {
				t.Fatal(err)
			}
			spec, _ := reg.Get(tc.model)
			cfg := spec.Preset(tc.dataset)
			if !models.OnOutLinks(cfg, g) {
				t.Fatalf("%s's preset on %s does not aggregate over out-links", tc.model, tc.dataset)
			}
			if err := models.SetOption(cfg, models.DirectedOption, "false"); err != nil {
				t.Fatal(err)
			}
			o := quickOpts(1)
			o.Epochs = 3
			r, dir := runSaved(t, g, 0, spec, cfg, o, tc.model, tc.dataset)
			m, _, _, err := Load(dir, g, reg)
			if err != nil {
				t.Fatal(err)
			}
			want, got := Probabilities(r.Model, 1), Probabilities(m, 1)
			for i, v := range want.Data {
				if got.Data[i] != v {
					t.Fatalf("loaded model's probability %d is %v, saved model's %v: rebuilt on another graph", i, got.Data[i], v)
				}
			}
		})
	}
}
