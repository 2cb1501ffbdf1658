package studies

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/train"
)

func res(model, ds string, meanOf, std float64) *experiments.Result {
	return &experiments.Result{Cell: experiments.Cell{Study: "main", Model: model, Dataset: ds}, Metric: datasets.Accuracy,
		Scores: train.Scores{TestMean: meanOf, TestStd: std, TestAccMean: meanOf, TestAccStd: std, MsPerEpoch: 1.5}}
}

func TestPCGCNSectionFlagsLargeDifferences(t *testing.T) {
	rs := []*experiments.Result{res("pcgcn", "chameleon", 74.0, 1.5), res("pcgcn", "cornell", 60.0, 5)}
	s := pcgcnSection(rs, []string{"chameleon", "cornell", "cora"})
	if !strings.Contains(s, "| chameleon | 74.00 ± 1.50 | 74.29 ± 1.90 | -0.29 | yes |") {
		t.Errorf("chameleon row missing or wrong:\n%s", s)
	}
	if !strings.Contains(s, "| cornell | 60.00 ± 5.00 | 85.94 ± 6.10 | -25.94 | **no**") {
		t.Errorf("cornell row not flagged:\n%s", s)
	}
	if strings.Contains(s, "| cora |") {
		t.Error("a dataset without results got a row")
	}
}

func TestMainTableRanks(t *testing.T) {
	rs := []*experiments.Result{
		res("a", "x", 80, 1), res("b", "x", 70, 1), res("c", "x", 70, 1),
		res("a", "y", 50, 1), res("b", "y", 60, 1), res("c", "y", 40, 1),
	}
	r := averageRanks(resultIndex(rs), []string{"a", "b", "c"}, []string{"x", "y"})
	// x: a 1, b and c tie for 2-3 → 2.5 each; y: b 1, a 2, c 3
	want := map[string]float64{"a": 1.5, "b": 1.75, "c": 2.75}
	for m, v := range want {
		if r[m] != v {
			t.Errorf("rank of %s = %v, want %v", m, r[m], v)
		}
	}
	s := mainTable(rs, []string{"a", "b", "c"}, []string{"x", "y"}, nil)
	if !strings.Contains(s, "| a | 80.00 ± 1.00 | 50.00 ± 1.00 | 1.5 |") {
		t.Errorf("row a:\n%s", s)
	}
	// bench medians replace the runs' step times where the model has them
	for _, r := range rs {
		r.MsPerEpoch = 7
	}
	speed := []benchSpeed{{Dataset: "x", Model: "a", Threads: 2, MedianMs: 1}, {Dataset: "y", Model: "a", Threads: 2, MedianMs: 3}}
	s = mainTable(rs, []string{"a", "b", "c"}, []string{"x", "y"}, speed)
	if !strings.Contains(s, "| 1.5 | — | 2.00 |") || !strings.Contains(s, "| 7.00 (run) |") {
		t.Errorf("ms / epoch column:\n%s", s)
	}
	st := benchSpeedTable(speed, []string{"a", "b"}, []string{"x", "y"})
	if !strings.Contains(st, "| a | 1.00 | 3.00 |") || !strings.Contains(st, "| b | — | — |") || !strings.Contains(st, "2 threads") {
		t.Errorf("speed table:\n%s", st)
	}
}

func TestSelectionMark(t *testing.T) {
	r := res("a", "x", 80, 1)
	if selectionMark(r) != "" {
		t.Error("a result without selection got a mark")
	}
	r.Config = map[string]any{"normalize_features": false}
	r.Selection = &experiments.Selection{Complete: true}
	if m := selectionMark(r); m != "ʳ" {
		t.Errorf("raw features: mark %q", m)
	}
	r.Config = map[string]any{"normalize_features": true}
	r.Selection.Complete = false
	if m := selectionMark(r); m != "ⁿ*" {
		t.Errorf("normalised, incomplete: mark %q", m)
	}
	r.Selection = &experiments.Selection{Complete: true, Dataset: "x-directed"}
	if m := selectionMark(r); m != "ⁿᵈ" {
		t.Errorf("normalised, directed twin: mark %q", m)
	}
}

func TestExtraSectionMarksTheSelection(t *testing.T) {
	r := res("gcn", "tolokers", 74.9, 1.1)
	r.Metric = datasets.ROCAUC
	r.TestAccMean = 78.5
	r.Config = map[string]any{"normalize_features": true}
	r.Selection = &experiments.Selection{Complete: true}
	s := extraSection([]*experiments.Result{r}, []string{"gcn", "mlp"}, []string{"tolokers"})
	if !strings.Contains(s, "| gcn | tolokers | ROC AUC | 74.90 ± 1.10ⁿ | 78.50 ± 1.10 |") {
		t.Errorf("extra section row:\n%s", s)
	}
	if strings.Contains(s, "| mlp |") {
		t.Errorf("a model without a result got a row:\n%s", s)
	}
}

func TestSpeedSection(t *testing.T) {
	s := speedSection([]speedPair{{Dataset: "cora", Model: "gcn", Threads: 2, OursMs: 1, TorchMs: 3, SpeedupRatio: 3, OursRSSMiB: 40, TorchRSSMiB: 300}})
	if !strings.Contains(s, "| cora | gcn | 2 | 1.00 | 3.00 | 3.00× | 40 | 300 |") {
		t.Errorf("speed row:\n%s", s)
	}
	if staleSentence(0, 10) != "" {
		t.Error("a note for no stale cells")
	}
	if note := staleSentence(3, 10); !strings.Contains(note, "3 of these 10 cells were computed by other numerics than this build's ("+tensor.Numerics()+")") || !strings.Contains(note, "--refresh") {
		t.Errorf("stale note %q", note)
	}
}

// TestSpeedMethod checks that the sentence above the speed table says what
// the rows record: the epochs, the warm-up and the pairs behind each row,
// for rows of the old single-pair script, of the current one and mixed.
func TestSpeedMethod(t *testing.T) {
	old := speedPair{Dataset: "cora", Model: "gcn"}
	cur := speedPair{Dataset: "cora", Model: "mlp", Epochs: 40, OursRuns: []float64{1, 2, 3}, TorchRuns: []float64{4, 5, 6}, WarmupEpochs: []byte("[5,7,9]")}
	for _, c := range []struct {
		rows      []speedPair
		want, not []string
	}{
		{[]speedPair{old}, []string{"median of 50 epochs after 5 warm-up epochs; one pair of runs a row"}, []string{"as many for the reference"}},
		{[]speedPair{cur, cur}, []string{"median of 40 epochs after warm-up epochs, as many for the reference as for ours", "median of 3 pairs"}, []string{"after 5 warm-up", "one pair"}},
		{[]speedPair{old, cur}, []string{"median of the timed epochs", "5 in the rows without warmup_epochs", "median of the pairs of runs it lists"}, []string{"median of 3 pairs", "one pair"}},
	} {
		s := speedMethod(c.rows)
		for _, w := range c.want {
			if !strings.Contains(s, w) {
				t.Errorf("%q lacks %q", s, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(s, w) {
				t.Errorf("%q says %q", s, w)
			}
		}
	}
}

// measuredOn names the machines rows were measured on, and says nothing
// of those written before bench recorded it.
func TestMeasuredOn(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{{nil, ""}, {[]string{"", ""}, ""}, {[]string{"a", "", "a"}, " on a"}, {[]string{"a", "b", "a"}, " on a, b"}} {
		t.Run(fmt.Sprint(c.in), func(t *testing.T) {
			if got := measuredOn(c.in); got != c.want {
				t.Errorf("MeasuredOn(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}
