package studies

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/testkit/datatest"
	"github.com/pcgcn/pcgcn/train"
)

// TestMainCandidates: a main-table cell is tried with its preset and with
// the feature preprocessing flipped (the runner trains both and reports the
// better on validation, see experiments.TestRunnerSelectsOnValidation);
// cells of other studies, cells that change the preset and PresetOnly
// have one candidate.
func TestMainCandidates(t *testing.T) {
	main := mainTableCells([]string{"mlp"}, []string{"texas"}, []int{0, 1})[0]
	other := main
	other.Study = "ablation"
	dropped := main.WithOpt(optDropClass, train.DropClass(1))
	set := main
	set.Sets = map[string]string{"hidden": "8"}
	for _, c := range []struct {
		name       string
		cell       experiments.Cell
		presetOnly bool
		want       []string // each candidate's feature normalisation override
	}{
		{"main table", main, false, []string{"", "false"}},
		{"preset only", main, true, []string{""}},
		{"another study", other, false, []string{""}},
		{"a class dropped", dropped, false, []string{""}},
		{"an option set", set, false, []string{""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := newPlan(Options{ResultsDir: t.TempDir(), PresetOnly: c.presetOnly})
			var got []string
			for _, k := range p.runner.Candidates(c.cell) {
				got = append(got, k.Sets[featureNormOption])
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("candidates %q, want %q", got, c.want)
			}
		})
	}
}

func TestMainCellsFollowTheAuthorsGraph(t *testing.T) {
	rn := newPlan(Options{ResultsDir: t.TempDir(), Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true}, Threads: 1}).runner
	rn.Epochs, rn.Patience = 3, 3
	graphs := func(cs []experiments.Cell) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Dataset+":"+c.Sets[directedOption])
		}
		return out
	}
	for _, tc := range []struct {
		model, dataset string
		want           []string // dataset:directed of each candidate
	}{
		{"mlp", "chameleon", []string{"chameleon:", "chameleon:"}},
		{"gcn", "squirrel", []string{"squirrel:", "squirrel:"}},
		{"ggcn", "chameleon", []string{"chameleon-directed:", "chameleon-directed:"}},
		{"gcnii", "squirrel-filtered", []string{"squirrel-filtered-directed:", "squirrel-filtered-directed:"}},
		{"pcgcn", "chameleon", []string{"chameleon:", "chameleon:", "chameleon-directed:true", "chameleon-directed:true"}},
		{"pcgcn", "texas", []string{"texas:", "texas:"}}, // no directed twin
	} {
		t.Run(tc.model+"/"+tc.dataset, func(t *testing.T) {
			c := mainTableCells([]string{tc.model}, []string{tc.dataset}, []int{0})[0]
			cands := rn.Candidates(c)
			if got := graphs(cands); !slices.Equal(got, tc.want) {
				t.Fatalf("candidates on %v, want %v", got, tc.want)
			}
			for i := 1; i < len(cands); i += 2 {
				if cands[i].Sets[featureNormOption] == "" {
					t.Errorf("candidate %d does not flip the feature normalisation: %v", i, cands[i].Sets)
				}
			}
		})
	}
	// PCGCN on Chameleon: the four candidates train, and the one with the
	// best validation is reported under the cell, naming its graph
	c := mainTableCells([]string{"pcgcn"}, []string{"chameleon"}, []int{0})[0]
	rs, err := rn.Run([]experiments.Cell{c})
	if err != nil {
		t.Fatal(err)
	}
	best, bestDS := math.Inf(-1), ""
	for _, k := range rn.Candidates(c) {
		r := rn.LoadExact(k)
		if r == nil {
			t.Fatalf("candidate %s not saved", k.Key())
		}
		if r.ValMean > best {
			best, bestDS = r.ValMean, k.Dataset
		}
	}
	got := rs[0]
	if got.Selection == nil || len(got.Selection.Candidates) != 4 || got.ValMean != best {
		t.Fatalf("selection %+v, want the best of 4 (val %.2f)", got.Selection, best)
	}
	if wantDS := map[bool]string{true: "chameleon-directed"}[bestDS != "chameleon"]; got.Selection.Dataset != wantDS {
		t.Errorf("selection names dataset %q, want %q", got.Selection.Dataset, wantDS)
	}
}

func TestDirectionSectionListsBothGraphs(t *testing.T) {
	if directionSection([]*experiments.Result{mainResult("gcn", "chameleon", 60, 1)}) != "" {
		t.Error("a result without candidates on two graphs got a section")
	}
	r := mainResult("pcgcn", "chameleon", 73.2, 1.3)
	r.Selection = &experiments.Selection{Complete: true, Chosen: "pcgcn__chameleon-directed__directed=true", Dataset: "chameleon-directed",
		Candidates: []experiments.Candidate{
			{Key: "pcgcn__chameleon", Dataset: "chameleon", ValMean: 68.7, TestMean: 68.5},
			{Key: "pcgcn__chameleon__normalize_features=false", Dataset: "chameleon", Sets: map[string]string{"normalize_features": "false"}, ValMean: 68.5, TestMean: 67.3},
			{Key: "pcgcn__chameleon-directed__directed=true", Dataset: "chameleon-directed", Sets: map[string]string{"directed": "true"}, ValMean: 73.3, TestMean: 73.2},
		}}
	s := directionSection([]*experiments.Result{r})
	for _, want := range []string{
		"| pcgcn | chameleon | symmetrised | row-normalised | 68.70 | 68.50 |  |",
		"| pcgcn | chameleon | symmetrised | raw | 68.50 | 67.30 |  |",
		"| pcgcn | chameleon | directed (out-links) | row-normalised | 73.30 | 73.20 | reported |",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("missing row %q in\n%s", want, s)
		}
	}
}

// TestSignedFeaturesTrainOnce: on an own graph with signed features, which
// row normalisation leaves raw, a main-table cell has one candidate (the
// flipped one would train the same model again and be marked ⁿ); with
// normalize_signed set in the preset's place the flip means something
// again, and the registered datasets keep both candidates (issue 35, item 6).
func TestSignedFeaturesTrainOnce(t *testing.T) {
	own := csbmGraph(t, 2, 0.8)
	p := newPlan(Options{ResultsDir: t.TempDir(), Datasets: []string{own}, Threads: 1})
	for _, m := range []string{"mlp", "gcn", "pcgcn"} {
		c := mainTableCells([]string{m}, []string{own}, []int{0})[0]
		if ks := p.runner.Candidates(c); len(ks) != 1 || len(ks[0].Sets) != 0 {
			t.Errorf("%s on signed features: candidates %v, want the preset alone", m, ks)
		}
		spec, cfg := mustResolve(t, m, own)
		cfg.Base().NormalizeSigned = true
		if ks := mainCandidates(p, c, spec, cfg); len(ks) != 2 {
			t.Errorf("%s with normalize_signed: %d candidates, want 2", m, len(ks))
		}
	}
	if ks := p.runner.Candidates(mainTableCells([]string{"mlp"}, []string{"texas"}, []int{0})[0]); len(ks) != 2 {
		t.Errorf("texas: %d candidates, want 2", len(ks))
	}
}

// TestMainTableDatasetsHaveNonNegativeFeatures backs signedFeatures, which
// loads only graphs given by path: every registered dataset of the main
// table and the results page has non-negative features, so both of its
// feature preprocessings differ.
func TestMainTableDatasetsHaveNonNegativeFeatures(t *testing.T) {
	opt := datasets.Options{DataDir: datatest.Mirror(t), Offline: true}
	for _, d := range append(paperDatasets(), extraDatasets()...) {
		g, err := datasets.Open(d, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !g.X.NonNegative() {
			t.Errorf("%s has negative feature values: signedFeatures must load it", d)
		}
	}
}
