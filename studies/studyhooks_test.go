package studies

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/testkit/datatest"
	"github.com/pcgcn/pcgcn/train"
)

// TestAStudyActsOnItsOwnSetting: a study that needs something of the
// engine per cell gives its cells a setting and acts on it in its own
// prepare and outputs hooks; the engine carries the setting in the cell's
// key and saved JSON, and the other studies' hooks leave the cell alone.
func TestAStudyActsOnItsOwnSetting(t *testing.T) {
	dir := t.TempDir()
	data := datasets.Options{DataDir: datatest.Mirror(t), Offline: true}
	p := newPlan(Options{ResultsDir: filepath.Join(dir, "results"), DocsDir: filepath.Join(dir, "docs"), Data: data, Threads: 1})
	p.runner.Epochs, p.runner.Patience = 3, 3
	prepared := 0
	tiny := study{name: "tiny",
		prepare: func(_ *plan, c experiments.Cell, g *graph.Graph, _ *train.Options) (*graph.Graph, error) {
			var w int
			if c.Opt("tiny_width", &w) {
				prepared++
			}
			return g, nil
		},
		outputs: func(_ *plan, c experiments.Cell, _ *train.Result, sr *experiments.SplitResult) error {
			var w int
			if c.Opt("tiny_width", &w) {
				if sr.Extra == nil {
					sr.Extra = map[string]float64{}
				}
				sr.Extra["tiny"] = float64(w)
			}
			return nil
		}}
	p.hook(append(registry(), tiny))
	c := experiments.Cell{Study: "tiny", Dataset: "texas", Model: "mlp", Splits: []int{0}}.WithOpt("tiny_width", 3)
	rs, err := p.runner.Run([]experiments.Cell{c})
	if err != nil {
		t.Fatal(err)
	}
	sr := rs[0].PerSplit[0]
	if prepared != 1 || sr.Extra["tiny"] != 3 || sr.Nodes != nil || sr.Points != nil {
		t.Errorf("prepared %d times, split %+v", prepared, sr)
	}
	if !strings.HasSuffix(p.runner.Path(c), "tiny/mlp__texas__tiny_width-3.json") {
		t.Errorf("saved at %s", p.runner.Path(c))
	}
	if r := p.runner.LoadExact(c); r == nil || r.PerSplit[0].Extra["tiny"] != 3 {
		t.Errorf("does not load back: %+v", r)
	}
}
