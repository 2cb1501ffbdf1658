package studies

import (
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/internal/datatest"
)

func TestMainCellsSelectFeatureNormOnValidation(t *testing.T) {
	p := newPlan(Options{ResultsDir: t.TempDir(), Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true}, Threads: 1})
	rn := p.runner
	rn.Epochs, rn.Patience = 20, 20
	c := mainTableCells([]string{"mlp"}, []string{"texas"}, []int{0, 1})[0]
	cands := rn.Candidates(c)
	if len(cands) != 2 || cands[1].Sets[featureNormOption] != "false" {
		t.Fatalf("candidates %+v: want the preset and the preset with raw features", cands)
	}
	rs, err := rn.Run([]experiments.Cell{c})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range cands {
		if _, err := os.Stat(rn.Path(k)); err != nil {
			t.Errorf("candidate %s not saved: %v", k.Key(), err)
		}
	}
	a, b := rn.LoadExact(cands[0]), rn.LoadExact(cands[1])
	want := cands[0]
	if b.ValMean > a.ValMean {
		want = cands[1]
	}
	got := rs[0]
	if got.Selection == nil || !got.Selection.Complete || len(got.Selection.Candidates) != 2 || got.Selection.Chosen != want.Key() {
		t.Fatalf("selection %+v, want %s chosen of 2", got.Selection, want.Key())
	}
	if got.Cell.Key() != c.Key() || got.ValMean != max(a.ValMean, b.ValMean) {
		t.Errorf("selected result: cell %s val %.2f; candidates val %.2f / %.2f", got.Cell.Key(), got.ValMean, a.ValMean, b.ValMean)
	}
	// with one candidate missing the best saved one is returned, marked incomplete
	os.Remove(rn.Path(cands[1]))
	if r := rn.Load(c); r == nil || r.Selection.Complete || r.Selection.Chosen != cands[0].Key() {
		t.Errorf("incomplete selection: %+v", r)
	}
	// PresetOnly: the preset alone
	p.opt.PresetOnly = true
	if r := rn.Load(c); r == nil || r.Selection != nil || len(rn.Candidates(c)) != 1 {
		t.Errorf("preset only: %+v", r)
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
