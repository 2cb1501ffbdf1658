package studies

import (
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/paper"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// line returns n points on y = a·x + noise[i].
func line(a float64, noise []float64) []point {
	ps := make([]point, len(noise))
	for i, e := range noise {
		x := float64(i) * 20
		ps[i] = point{X: x, Y: a*x + e}
	}
	return ps
}

func TestMatchingVerdict(t *testing.T) {
	exact := []float64{0, 0, 0, 0, 0, 0}
	noisy := []float64{30, -30, 25, -25, 30, -30} // r well below 0.7 for slope 0.5
	hom := map[string]bool{"cora": true, "chameleon": false}
	ds := []string{"chameleon", "cora"}
	cases := []struct {
		name string
		pts  map[string][]point
		want string
	}{
		{"strong on heterophilous, weak on homophilous", map[string][]point{"chameleon": line(1, exact), "cora": line(0.5, noisy)}, "the claim holds here"},
		{"weak on heterophilous", map[string][]point{"chameleon": line(0.5, noisy), "cora": line(1, exact)}, "the claim does not hold here"},
		{"falling on homophilous", map[string][]point{"chameleon": line(1, exact), "cora": line(-1, exact)}, "the claim holds here. On the homophilous datasets the correlation is negative"},
		{"a dataset not finished", map[string][]point{"chameleon": line(1, exact), "cora": line(1, exact[:4])}, "not yet: cora has 4 of its 6 points"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := matchingVerdict(c.pts, ds, hom, 6)
			if !strings.Contains(got, c.want) {
				t.Errorf("%s: %q, want it to contain %q", c.name, got, c.want)
			}
		})
	}
	if got := matchingVerdict(map[string][]point{"chameleon": line(1, exact), "cora": line(0.5, noisy)}, ds, hom, 6); strings.Contains(got, "negative") {
		t.Errorf("a positive homophilous r is called negative: %q", got)
	}
	if r := pearson(line(0.5, noisy)); r >= strongCorrelation || r <= 0 {
		t.Fatalf("test data: noisy r = %.3f, want in (0, %.1f)", r, strongCorrelation)
	}
	if got := matchingVerdict(map[string][]point{"chameleon": line(1, exact)}, []string{"chameleon"}, hom, 6); !strings.Contains(got, "only one kind") {
		t.Errorf("one kind of dataset: %q", got)
	}
	// accuracy flat on cora: r is undefined there, not "one kind of dataset"
	if got := matchingVerdict(map[string][]point{"chameleon": line(1, exact), "cora": line(0, exact)}, ds, hom, 6); !strings.Contains(got, "not judged: r is undefined") {
		t.Errorf("constant accuracy: %q", got)
	}
}

func TestMatchingTable(t *testing.T) {
	exact := []float64{0, 0, 0, 0, 0, 0}
	pts := map[string][]point{
		"chameleon": line(1, exact),     // six points on a line: r = 1
		"cora":      line(1, exact[:2]), // two points: r would be ±1 whatever they are
	}
	train := map[string][]point{"chameleon": line(-1, exact)}
	var b strings.Builder
	matchingTable(&b, []string{"chameleon", "cora", "actor"}, pts, train, map[string]float64{"chameleon": -0.2})
	got := b.String()
	for _, want := range []string{
		"| chameleon | -0.2 | 1.000 | 0.0 → 100.0 | 6 | -1.000 | 0.0 → -100.0 | 6 |",
		"| cora | — | — (needs 3 points) |",
		"| 2 | — | — | 0 |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "actor") {
		t.Errorf("a dataset with no point has a row:\n%s", got)
	}
	if s := computedMatching([]string{"chameleon", "actor"}, pts); !strings.Contains(s, fmt.Sprintf("%.0f%% (chameleon)", pts["chameleon"][0].X)) || strings.Contains(s, "actor") {
		t.Errorf("computedMatching: %q", s)
	}
}

func TestLabelRateVerdict(t *testing.T) {
	for _, c := range []struct {
		wins, n, total int
		want           string
	}{
		{0, 0, 35, "not yet"},
		{3, 4, 35, "3 of the 4 points where every model has run (4 of the 35"},
		{35, 35, 35, "the claim that it is the best at every size holds here"},
		{30, 35, 35, "30 of 35 (dataset, labels-per-class) points: the claim does not hold here"},
	} {
		t.Run(fmt.Sprintf("%d of %d", c.wins, c.n), func(t *testing.T) {
			if got := labelRateVerdict(c.wins, c.n, c.total); !strings.Contains(got, c.want) {
				t.Errorf("%d/%d of %d: %q, want %q", c.wins, c.n, c.total, got, c.want)
			}
		})
	}
}

// TestPartialStudiesSayNotYet trains one cell of the missing-class and the
// label-rate studies and checks that their sections give no verdict on the
// incomplete results.
func TestPartialStudiesSayNotYet(t *testing.T) {
	dir := t.TempDir()
	p := newPlan(Options{Quick: true, Datasets: []string{"texas"}, Splits: []int{0}, ResultsDir: dir,
		DocsDir: filepath.Join(dir, "docs"), Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true}, Threads: 1})
	p.runner.Epochs, p.runner.Patience = 3, 3
	miss := missingClassCells([]string{"mlp"}, []string{"texas"}, 5, p.splits)[:1]
	rate := labelRateModelCells([]string{"mlp"}, []string{"texas"}, p.labelRateSizes()[:1], p.splits)
	if _, err := p.runner.Run(append(miss, rate...)); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := renderMissing(p, &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "**Verdict on texas:** not yet: 1 of the 20") {
		t.Errorf("missing classes, one cell saved:\n%s", b.String())
	}
	b.Reset()
	if err := renderLabelRate(p, &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "**Verdict:** not yet") {
		t.Errorf("label rate, one cell saved:\n%s", b.String())
	}
}

func TestMissingVerdict(t *testing.T) {
	avg := func(mlp, gcn, gat, pcgcn float64) map[string]float64 {
		return map[string]float64{"mlp": mlp, "gcn": gcn, "gat": gat, "pcgcn": pcgcn}
	}
	paperAvg := paperMissingAverages("chameleon")
	if d := paperAvg["pcgcn"] - paperAvg["gcn"]; math.Abs(d-20.316) > 0.001 {
		t.Fatalf("paper's chameleon margin over GCN = %.2f, want 20.316 (57.976 − 37.66, the means of its columns)", d)
	}
	for _, c := range []struct {
		name     string
		avg, pap map[string]float64
		want     string
	}{
		{"far ahead", avg(40, 45, 44, 60), paperAvg, "ahead of the best baseline (GCN) by 15.00 points (the paper: 20.32), so the claim that it stays ahead holds here"},
		{"just ahead", avg(42.18, 51.21, 54.07, 56.14), paperAvg, "(GAT) by 2.07 points (the paper: 20.32), so it stays ahead, but by less than half the paper's margin: the claim holds in part here"},
		{"behind", avg(40, 58, 44, 55), paperAvg, "GCN is ahead by 3.00 points, so the claim does not hold here"},
		{"level", avg(40, 55, 44, 55), paperAvg, "PCGCN and GCN are level, so the claim does not hold here"},
		{"own graph", avg(40, 45, 44, 50), nil, "(GCN) by 5.00 points, so the claim that it stays ahead holds here"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := missingVerdict(c.avg, c.pap); !strings.Contains(got, c.want) {
				t.Errorf("%s: %q, want it to contain %q", c.name, got, c.want)
			}
		})
	}
}

func TestControlGains(t *testing.T) {
	// a cell as it is saved (the struct) and as it is loaded back (a JSON map)
	fresh := &experiments.Result{Cell: experiments.Cell{Dataset: "chameleon"}, Config: &models.PCGCNConfig{Beta: -0.2, BetaScale: 1}}
	loaded := &experiments.Result{Cell: experiments.Cell{Dataset: "cora"}, Config: map[string]any{"beta": 0.6, "beta_scale": 2.0}}
	other := &experiments.Result{Cell: experiments.Cell{Dataset: "actor"}, Config: map[string]any{"hidden": 64}}
	got := controlGains([]*experiments.Result{fresh, loaded, other, nil})
	want := map[string]float64{"chameleon": -0.2, "cora": 1.2}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("controlGains = %v, want %v", got, want)
	}
}

func TestSpan(t *testing.T) {
	if got := span(11.6, 12.4); got != "12" {
		t.Errorf("span(11.6, 12.4) = %q, want one number", got)
	}
	if got := span(17.2, 23); got != "17–23" {
		t.Errorf("span(17.2, 23) = %q", got)
	}
}

func TestMissingDrops(t *testing.T) {
	g := &graph.Graph{NumClasses: 2, Y: []int32{0, 1, 1, 1}, Splits: []graph.Split{{Test: []int32{0, 1}}, {Test: []int32{2, 3}}}}
	if got := testClassShares(g); !reflect.DeepEqual(got, []float64{0.25, 0.75}) {
		t.Fatalf("testClassShares = %v, want [0.25 0.75]", got)
	}
	full := map[string]float64{"mlp": 47.48, "pcgcn": 67.81}
	avg := map[string]float64{"mlp": 42.18, "pcgcn": 56.14}
	got := missingDrops([]float64{0.17, 0.23}, full, avg, paper.MissingClass()["chameleon"])
	for _, want := range []string{"Each class is 17–23% of the test nodes", "at most 17–23 points, about 10–14 for a model 60% accurate on it",
		"ours MLP 5.3, PCGCN 11.7", "the paper's MLP 22.5, GCN 28.3, GAT 28.5, PCGCN 16.3"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in %q", want, got)
		}
	}
	if got := missingDrops([]float64{0.5, 0.5}, full, avg, nil); strings.Contains(got, "paper") {
		t.Errorf("own graph mentions the paper: %q", got)
	}
}

func TestLabelRateMargins(t *testing.T) {
	nan := math.NaN()
	series := map[string][]meanStd{
		"pcgcn": {{Mean: 70}, {Mean: 60}, {Mean: 50}},
		"gcn":   {{Mean: 68}, {Mean: 61}, {Mean: nan}},
		"gat":   {{Mean: 69.5}, {Mean: 59}, {Mean: 40}},
		"mlp":   {{Mean: 50}, {Mean: 40}, {Mean: 30}},
	}
	got := labelRateMargins(series, 3)
	if got[0] != 0.5 || got[1] != -1 || !math.IsNaN(got[2]) {
		t.Errorf("margins %v, want [0.5 -1 NaN] (the best other model, NaN where GCN has not run)", got)
	}
	note := labelRateMarginNote("cora", got)
	for _, want := range []string{"at 1 of the 2 sizes", "from -1.00 to +0.50", "mean -0.25"} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q lacks %q", note, want)
		}
	}
	delete(series, "pcgcn")
	for _, v := range labelRateMargins(series, 3) {
		if !math.IsNaN(v) {
			t.Errorf("margins without PCGCN: %v, want NaN", v)
		}
	}
	if note := labelRateMarginNote("cora", []float64{nan}); !strings.Contains(note, "no size") {
		t.Errorf("note without complete sizes: %q", note)
	}
}

func TestChangeSentence(t *testing.T) {
	v := func(why string) experiments.Variant { return experiments.Variant{Name: why, Why: why} }
	got := changeSentence([]variantDelta{
		{Variant: v("w/o MP"), Heterophilous: variantChange{Ours: -5.8, Paper: -9.26, N: 6}},
		{Variant: v("w/o loss"), Heterophilous: variantChange{Ours: 0.16, Paper: math.NaN(), N: 6}},
		{Variant: v("not run"), Heterophilous: variantChange{N: 0}},
	})
	want := "accuracy falls with: w/o MP (-5.80; paper -9.26); it does not fall with: w/o loss (+0.16)."
	if !strings.Contains(got, want) || strings.Contains(got, "not run") {
		t.Errorf("got %q, want it to contain %q and not the variant without results", got, want)
	}
	if got := changeSentence(nil); got != "" {
		t.Errorf("no variants: %q", got)
	}
}

func TestLargestGain(t *testing.T) {
	nan := math.NaN()
	b := func(label string, min, nodes int, pc, gcn float64) distanceBucket {
		return distanceBucket{Label: label, Min: min, Nodes: nodes, Acc: []float64{pc, gcn}}
	}
	buckets := []distanceBucket{
		b("1", 1, 500, 80, 78),
		b("2", 2, 200, 60, 55),
		b("3", 3, 10, 90, 40),             // too few nodes to count
		b("≥4", 4, 100, nan, 30),          // a model without nodes
		b("unreachable", -1, 900, 50, 10), // not a distance
	}
	got, gain, ok := largestGain(buckets)
	if !ok || got.Label != "2" || gain != 5 {
		t.Errorf("largest gain at %q (%v, %v), want SLD 2 (+5)", got.Label, gain, ok)
	}
	if _, _, ok := largestGain(buckets[2:]); ok {
		t.Error("a bucket below sldMinNodes, without accuracy or unreachable was chosen")
	}
}

func TestPooledAndHomophilousNote(t *testing.T) {
	bins := []homophilyBin{
		{Lo: 0, Hi: 0.2, Nodes: 100, Acc: []float64{50, 40}, Count: []int{100, 100}},
		{Lo: 0.2, Hi: 0.4, Nodes: 300, Acc: []float64{70, 60}, Count: []int{300, 300}},
		{Lo: 0.4, Hi: 0.6, Nodes: 10, Acc: []float64{0, 0}, Count: []int{10, 10}},
		{Lo: 0.6, Hi: 0.8, Nodes: 20, Acc: []float64{80, 90}, Count: []int{20, 20}},
		{Lo: 0.8, Hi: 1, Nodes: 20, Acc: []float64{100, 90}, Count: []int{20, 20}},
	}
	acc, nodes, ok := pooled(bins, 0, 0.4)
	if !ok || nodes != 400 || acc[0] != 65 || acc[1] != 55 {
		t.Errorf("low bins pooled: %v over %d (%v), want [65 55] over 400", acc, nodes, ok)
	}
	acc, nodes, ok = pooled(bins, 0.6, 1.01)
	if !ok || nodes != 40 || acc[0] != 90 || acc[1] != 90 {
		t.Errorf("high bins pooled: %v over %d (%v), want [90 90] over 40", acc, nodes, ok)
	}
	note := homophilousNote(map[string][]float64{"a": {90, 85, 91}, "b": {70, 80, 75}, "c": {90, 80, 85}},
		[]string{"a", "b", "c"})
	for _, want := range []string{"within 2 points on a -1.0;", "below on b -10.0;", "above on c +5.0."} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q lacks %q", note, want)
		}
	}
	if homophilousNote(nil, nil) != "" {
		t.Error("a note without datasets")
	}
}

func TestLeastHarmSentence(t *testing.T) {
	v := func(why string) experiments.Variant { return experiments.Variant{Name: why, Why: why} }
	deltas := []variantDelta{
		{Variant: v("random"), Heterophilous: variantChange{Ours: -1.40, Paper: -5.99, N: 6}},
		{Variant: v("min-degree"), Heterophilous: variantChange{Ours: 0.28, Paper: -5.21, N: 6}},
		{Variant: v("max-degree"), Heterophilous: variantChange{Ours: -1.88, Paper: -2.01, N: 6}},
	}
	// a variant that raises accuracy does not "hurt least": it does not hurt
	got := leastHarmSentence(deltas)
	if want := "On the heterophilous datasets min-degree does not lower accuracy at all (+0.28); max-degree, the paper's least harmful variant, changes it by -1.88 here."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	deltas[1].Heterophilous.Ours = -3
	if want := "hurts least on the heterophilous datasets is random (-1.40), not max-degree as in the paper (-1.88 here)."; !strings.Contains(leastHarmSentence(deltas), want) {
		t.Errorf("got %q, want %q", leastHarmSentence(deltas), want)
	}
	deltas[2].Heterophilous.Ours = -0.5
	if got := leastHarmSentence(deltas); !strings.Contains(got, "is max-degree, as in the paper") {
		t.Errorf("agreeing: %q", got)
	}
	deltas[2].Heterophilous.Ours = 0.5
	if got := leastHarmSentence(deltas); got != "On the heterophilous datasets max-degree, the paper's least harmful variant, does not lower accuracy at all here (+0.50)." {
		t.Errorf("agreeing, not hurting: %q", got)
	}
	if got := leastHarmSentence(nil); got != "" {
		t.Errorf("no variants: %q", got)
	}
}

// TestHeteLow: the low-homophily verdict judges a dataset only on enough
// test nodes (an own homophilous graph had one, and one prediction decided
// it), and says so when none qualifies.
func TestHeteLow(t *testing.T) {
	bin := func(lo float64, nodes int, acc ...float64) homophilyBin {
		return homophilyBin{Lo: lo, Hi: lo + 0.2, Nodes: nodes, Acc: acc, Count: []int{nodes, nodes, nodes}}
	}
	few := []homophilyBin{bin(0.2, 1, 100, 0, 0), bin(0.8, 300, 90, 95, 94)}
	if _, judged := heteLow(few); judged {
		t.Error("one low-homophily test node judged")
	}
	many := []homophilyBin{bin(0, 20, 60, 50, 40), bin(0.2, 20, 60, 50, 40)}
	if win, judged := heteLow(many); !judged || !win {
		t.Errorf("40 nodes, PCGCN ahead: win %v judged %v", win, judged)
	}
	many[1].Acc = []float64{60, 70, 40}
	if win, judged := heteLow(many); !judged || win {
		t.Errorf("40 nodes, GCN ahead: win %v judged %v", win, judged)
	}
	if v := heteVerdict(0, 0, "On nodes with homophily of 0.6 or more ..."); !strings.Contains(v, "not judged") {
		t.Errorf("nothing judged: %q", v)
	}
	if v := heteVerdict(1, 2, ""); v != "**Verdict:** on nodes with homophily below 0.4, PCGCN is more accurate than both GCN and GAT on 1 of 2 datasets (those with at least 30 such test nodes pooled)." {
		t.Errorf("%q", v)
	}
	if v := heteVerdict(0, 0, ""); v != "" {
		t.Errorf("no verdict without anything judged: %q", v)
	}
}
