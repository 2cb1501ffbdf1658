package studies

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/paper"
	"github.com/pcgcn/pcgcn/report"
	"github.com/pcgcn/pcgcn/search"
	"github.com/pcgcn/pcgcn/stats"
	"github.com/pcgcn/pcgcn/train"
)

// The fair study (issue 38) answers "does pinning control help?" with an
// equal-budget search for every model: its searches (fairStudy), and its
// analysis and section as functions of a plain fairInput built from the
// saved cells (fairInput).

// fairStudy is the fair study (issue 38): one equal-budget search
// (experiments.Search) per model × dataset, each the same number of trials
// under the same halving schedule, the chosen point trained on every split,
// and the section comparing the tuned models. Optional: it takes days of CPU
// on a 2-core machine (its --plan says how long); every trial is a saved
// cell, so it resumes, and `reproduce --only fair --worker` processes share
// it through the claims.
func fairStudy() study {
	return study{name: fairName, optional: true,
		help: "equal-budget search of every model (" + fmt.Sprint(fairTrials) + " trials, successive halving on\n" +
			"validation) on the paper's datasets and the four extra benchmarks, the\n" +
			"tuned leaderboard with Friedman/Nemenyi/Wilcoxon-Holm tests and a CD\n" +
			"diagram: does pinning control help? (days of CPU; resumable)",
		title:   "Does pinning control help? An equal-budget search of every model",
		section: renderFair,
		measure: func(ctx context.Context, p *plan) error {
			return p.eachFairSearch(func(s *experiments.Search) error { _, err := s.Run(ctx, p.runner); return err })
		},
		work: func(ctx context.Context, p *plan, wo experiments.WorkOptions) error {
			return p.eachFairSearch(func(s *experiments.Search) error { return s.Work(ctx, p.runner, wo) })
		},
		planned: fairPlanned}
}

// fairName is the fair study's name (reproduce --only fair).
const fairName = "fair"

// fairTrials and fairEta are the fair study's budget, the same for every
// model: 27 points, 26 quasi-random ones and the model's preset (so a
// search starts from its authors' setting: Search.WithPreset), of which rungs of 27, 9, 3 and 1 are
// trained (eta 3) on 1, 2, 5 and 10 splits for 37, 111, 333 and 1000 epochs
// (the protocol's patience, at most the rung's epochs): 17,992 split-epochs
// a search, about 1.8 times the 10 splits × 1000 epochs of one main-table
// cell trained to the end. Quick mode: 3 trials.
const (
	fairTrials, fairEta = 27, 3
	quickFairTrials     = 3
)

// fairModels are the models the fair study tunes: every model with a search
// space, which is every model of the registry but Geom-GCN (not in it: it
// needs precomputed embeddings). First the ten the issue names (PCGCN, the
// classic GNNs in their classic form, whose spaces hold residual connections
// and normalisation, MLP and five heterophily models), then the rest of the
// main table's baselines; TestFairTunesEveryModelWithASpace keeps the list
// whole.
func fairModels() []string {
	return []string{"pcgcn", "gcn", "sage", "gat", "mlp", "ggcn", "glognn", "linkx", "gprgnn", "h2gcn-1",
		"h2gcn-2", "gcnii", "appnp", "mixhop", "fagcn", "sgc"}
}

// fairDatasets are the paper's datasets and the four extra benchmarks.
func fairDatasets(p *plan) []string { return p.datasets(append(paperDatasets(), extraDatasets()...)) }

// fairPlanModels are the models of this run: --models, else fairModels
// (quick mode: PCGCN and GCN).
func (p *plan) fairPlanModels() []string {
	switch {
	case len(p.opt.Models) > 0:
		return p.opt.Models
	case p.opt.Quick:
		return []string{"pcgcn", "gcn"}
	}
	return fairModels()
}

// fairSearches lists the study's searches, dataset by dataset (so that the
// leaderboard fills a dataset at a time), every model with its space.
func (p *plan) fairSearches() ([]*experiments.Search, error) {
	trials := fairTrials
	if p.opt.Quick {
		trials = quickFairTrials
	}
	epochs, patience := p.runner.Epochs, p.runner.Patience
	if epochs == 0 {
		d := train.DefaultOptions()
		epochs, patience = d.Epochs, d.Patience
	}
	reg := models.NewRegistry()
	var out []*experiments.Search
	for _, d := range fairDatasets(p) {
		for _, m := range p.fairPlanModels() {
			spec, err := reg.Get(m)
			if err != nil {
				return nil, err
			}
			space, err := search.ParseSpace(spec.Space.Dims...)
			if err != nil {
				return nil, fmt.Errorf("fair: %s's space: %w", m, err)
			}
			sched := search.Schedule{Trials: trials, Eta: fairEta, MinSplits: 1, MaxSplits: len(p.splits),
				MinEpochs: search.DefaultMinEpochs(trials, fairEta, epochs), MaxEpochs: epochs}
			out = append(out, &experiments.Search{Model: m, Dataset: d, Space: space, Seed: p.runner.Seed, WithPreset: true,
				Schedule: sched, Splits: p.splits, Epochs: epochs, Patience: patience})
		}
	}
	return out, nil
}

// fairRunOrder is the order the searches run in, cheapest dataset first, so
// that whole datasets of the leaderboard are complete early; a dataset not
// listed (a graph given by path) comes last. The cost is --plan's estimate
// of a dataset's 16 searches in session 50, from the cells saved by then
// (CPU-hours, pricing each trial by the work of its configuration on the
// graph, experiments.Estimator): squirrel-filtered 3.0 (3 searches saved),
// Cora 8.2, CiteSeer 10.1, Squirrel 19.7, Actor 22.0, Minesweeper 30.2,
// Tolokers 45.9. Squirrel came right after squirrel-filtered before, by
// node count, ahead of Cora and CiteSeer.
func fairRunOrder() []string {
	return []string{"cornell", "texas", "wisconsin", "chameleon-filtered", "chameleon", "squirrel-filtered",
		"cora", "citeseer", "squirrel", "actor", "minesweeper", "tolokers"}
}

// eachFairSearch calls f on every search of the study, in fairRunOrder.
func (p *plan) eachFairSearch(f func(*experiments.Search) error) error {
	ss, err := p.fairSearches()
	if err != nil {
		return err
	}
	order := fairRunOrder()
	rank := func(d string) int {
		if i := slices.Index(order, d); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(ss, func(a, b *experiments.Search) int { return rank(a.Dataset) - rank(b.Dataset) })
	for _, s := range ss {
		if err := f(s); err != nil {
			return fmt.Errorf("fair: %s on %s: %w", s.Model, s.Dataset, err)
		}
	}
	return nil
}

// fairPlanned is the study's --plan line: searches as units, each done when
// its final cell is saved, with the estimated time of what is left.
func fairPlanned(p *plan) experiments.PlanEntry {
	e := experiments.PlanEntry{Study: fairName, Unit: "searches", Shared: true}
	ss, err := p.fairSearches()
	if err != nil {
		return e
	}
	for _, s := range ss {
		e.Cells++
		rows, err := s.Plan(p.runner)
		if err != nil {
			continue
		}
		left := 0.0
		done := true
		unchecked := false
		for _, r := range rows {
			unchecked = unchecked || r.Unchecked > 0
			left += r.EstSeconds
			e.Splits += r.SplitsLeft
			if r.SplitsLeft > 0 || !r.Known {
				done = false
			}
		}
		if done {
			e.Done++
			continue
		}
		if unchecked {
			e.Unchecked++
			e.AddUnopened(s.Dataset)
		}
		e.AddLeft(s.Dataset, s.Model, left)
		e.Costs = append(e.Costs, left)
	}
	return e
}

// renderFair writes the fair study's section from the saved searches.
func renderFair(p *plan, w io.Writer) error {
	in, err := p.fairInput()
	if err != nil {
		return err
	}
	path, link := p.figure("fair_cd.png")
	return fairSection(w, in, path, link)
}

// fairInput reads every complete search of the plan (its chosen point's
// final cell) and the main table's cell of the same model and dataset (the
// preset) into the section's input. A search still running is left out.
func (p *plan) fairInput() (fairInput, error) {
	ss, err := p.fairSearches()
	if err != nil {
		return fairInput{}, err
	}
	in := fairInput{Models: p.fairPlanModels(), Datasets: fairDatasets(p), Metrics: map[string]string{},
		Paper: paper.MainTable()["pcgcn"]}
	for _, s := range ss {
		rep, err := s.Report(p.runner)
		if err != nil {
			return fairInput{}, err
		}
		pt, final, ok, err := s.Chosen(p.runner)
		if err != nil || !ok || rep.Final == nil {
			continue
		}
		r := s.FinalRunner(p.runner).LoadExact(final)
		if r == nil {
			continue
		}
		e := fairEntry{Dataset: s.Dataset, Model: s.Model, Point: pt.Values, Trials: rep.Budget.Trials, CPUSeconds: rep.Budget.CPUSeconds}
		for _, sr := range r.PerSplit {
			e.Splits = append(e.Splits, sr.Split)
			e.Val = append(e.Val, sr.Val)
			e.Test = append(e.Test, sr.Test)
		}
		if pr := p.load(experiments.Cell{Study: mainStudy, Dataset: s.Dataset, Model: s.Model, Splits: p.splits}.WithOpt(optCollect, true)); pr != nil {
			for _, sr := range pr.PerSplit {
				e.Preset = append(e.Preset, sr.Test)
			}
			e.PresetOutside = presetOutside(pr)
		}
		in.Metrics[s.Dataset] = string(r.Metric)
		in.Entries = append(in.Entries, e)
	}
	return in, nil
}

// fairAlpha is the significance level of every test of the fair study.
const fairAlpha = 0.05

// fairClassic are the classic GNNs PCGCN is compared with on each dataset
// (in their classic form: residual connections, normalisation and the
// other options the search explores); the best of them on validation is
// the opponent.
func fairClassic() []string { return []string{"gcn", "sage", "gat"} }

// fairEntry is one (dataset, model) of the fair study: the point the
// search chose, trained on every split, beside the preset's cell.
type fairEntry struct {
	Dataset, Model string
	// Splits names the splits of Test and Val (nil: 0, 1, …); scores are
	// in percent, one per split.
	Splits    []int
	Test, Val []float64
	// Preset is the preset's (the main table's cell) per-split test
	// scores, nil when there is none.
	Preset []float64
	// PresetOutside says that the main table's cell was chosen, on
	// validation, on the directed graph, which no trial of the search uses.
	PresetOutside bool
	// Point is the chosen hyperparameters, as --set values.
	Point map[string]string
	// Trials is the number of trials the search ran; CPUSeconds the CPU
	// time of the search and of the final training on every split.
	Trials     int
	CPUSeconds float64
}

// fairInput is what the fair study's section is computed from.
type fairInput struct {
	// Datasets and Models are the columns and rows, in order; PCGCN must
	// be among the models for the comparisons.
	Datasets, Models []string
	// Entries holds one entry per (dataset, model) that has run.
	Entries []fairEntry
	// Metrics names each dataset's metric ("accuracy" when missing).
	Metrics map[string]string
	// Paper is the paper's PCGCN row (paper.MainTable()["pcgcn"]).
	Paper map[string]paper.Score
}

// fairPair is PCGCN against the best classic GNN on one dataset, over the
// splits both trained.
type fairPair struct {
	Dataset string
	// Classic is the classic GNN with the best mean validation score.
	Classic             string
	PCGCN, ClassicScore meanStd
	Paired              stats.Paired
	// Adjusted is the Wilcoxon p-value after Holm's correction over the
	// datasets; Significant whether it is at most fairAlpha.
	Adjusted    float64
	Significant bool
}

// fairGap is PCGCN tuned against the paper's PCGCN on one dataset.
type fairGap struct {
	Dataset       string
	Paper         paper.Score
	Preset, Tuned meanStd
	// Closed: the tuned mean is at least the paper's less one standard
	// deviation (the larger of the paper's and ours); PresetClosed the same
	// of the preset's mean (with the preset's standard deviation), when
	// there is no gap beyond the spread for tuning to close.
	Closed, PresetClosed bool
	// PresetOutside: the preset's cell was chosen on the directed graph,
	// which no trial of the search uses (outsideMark).
	PresetOutside bool
}

// opened reports whether tuning opened a gap the preset did not have: the
// preset within one standard deviation of the paper's mean, the tuned
// point below it by more.
func (g fairGap) opened() bool { return g.PresetClosed && !g.Closed }

// withinStd reports whether ours is at least the paper's mean less one
// standard deviation, the larger of the paper's and ours.
func withinStd(p paper.Score, ours meanStd) bool {
	return ours.Mean >= p.Mean-math.Max(p.Std, ours.Std)
}

// fairAnalysis is every number the fair study's section states.
type fairAnalysis struct {
	in    fairInput
	entry map[string]map[string]*fairEntry // model → dataset
	// Saved counts the entries present of the len(Models)·len(Datasets).
	Saved, Total int
	// Best is the model with the highest tuned test mean per dataset, on
	// the datasets where every model's search is saved.
	Best map[string]string
	// Ranks, Friedman, the Nemenyi CDs, its groups and the pairwise
	// Wilcoxon–Holm tests, when at least two complete datasets exist
	// (LeaderErr says why not).
	Friedman           stats.Friedman
	CD05, CD10         float64
	NemenyiGroups      [][]int
	Pairwise           stats.Pairwise
	LeaderErr          error
	Pairs              []fairPair
	Missing            []string // datasets without PCGCN or some classic GNN
	Across             stats.Wilcoxon
	AcrossErr          error
	AcrossMeanDiff     float64
	Gaps               []fairGap
	TrialsLo, TrialsHi int
	CPUByModel         map[string]float64
}

// tuned is the tuned test mean ± std of model on dataset (NaN when
// missing).
func (a *fairAnalysis) tuned(model, dataset string) meanStd {
	if e := a.entry[model][dataset]; e != nil && len(e.Test) > 0 {
		m, s := train.MeanStd(e.Test)
		return meanStd{m, s}
	}
	return meanStd{math.NaN(), math.NaN()}
}

// preset is the preset's test mean ± std of model on dataset (NaN when
// missing).
// outsideLegend explains outsideMark.
const outsideLegend = "†: the main table's cell was chosen, on validation, on the directed graph, which no trial of the search uses (the searches run on the symmetrised graph; a direction is a dataset of its own), so there the bracketed preset can score above the tuned point."

// outsideMark is "†" when the main table's cell of model on dataset made a
// choice the search cannot (fairEntry.PresetOutside), else "".
func (a *fairAnalysis) outsideMark(model, dataset string) string {
	if e := a.entry[model][dataset]; e != nil && e.PresetOutside {
		return "†"
	}
	return ""
}

// anyOutside reports whether a preset shown carries outsideMark.
func (a *fairAnalysis) anyOutside() bool {
	for _, byDataset := range a.entry {
		for _, e := range byDataset {
			if e.PresetOutside && len(e.Preset) > 0 {
				return true
			}
		}
	}
	return false
}

// presetOutside reports whether the main table's result r was chosen on
// the directed twin of the graph (experiments.Selection.Dataset), which no
// trial of the fair study's searches uses: a graph's direction is a dataset
// of its own. The feature preprocessing, the main table's other choice, is
// a dimension of every search space (models.SearchSpace).
func presetOutside(r *experiments.Result) bool {
	return r.Selection != nil && r.Selection.Dataset != ""
}

func (a *fairAnalysis) preset(model, dataset string) meanStd {
	if e := a.entry[model][dataset]; e != nil && len(e.Preset) > 0 {
		m, s := train.MeanStd(e.Preset)
		return meanStd{m, s}
	}
	return meanStd{math.NaN(), math.NaN()}
}

// analyzeFair computes the fair study's numbers from in.
func analyzeFair(in fairInput) *fairAnalysis {
	a := &fairAnalysis{in: in, entry: map[string]map[string]*fairEntry{}, Best: map[string]string{},
		Total: len(in.Models) * len(in.Datasets), CPUByModel: map[string]float64{}}
	for i := range in.Entries {
		e := &in.Entries[i]
		if !slices.Contains(in.Models, e.Model) || !slices.Contains(in.Datasets, e.Dataset) {
			continue
		}
		if a.entry[e.Model] == nil {
			a.entry[e.Model] = map[string]*fairEntry{}
		}
		if a.entry[e.Model][e.Dataset] == nil {
			a.Saved++
		}
		a.entry[e.Model][e.Dataset] = e
		a.CPUByModel[e.Model] += e.CPUSeconds
		if a.TrialsLo == 0 || e.Trials < a.TrialsLo {
			a.TrialsLo = e.Trials
		}
		a.TrialsHi = max(a.TrialsHi, e.Trials)
	}
	scores := make([][]float64, len(in.Datasets))
	for d, ds := range in.Datasets {
		scores[d] = make([]float64, len(in.Models))
		best, complete := math.Inf(-1), true
		for m, model := range in.Models {
			v := a.tuned(model, ds).Mean
			scores[d][m] = v
			complete = complete && !math.IsNaN(v)
			if v > best {
				best, a.Best[ds] = v, model
			}
		}
		if !complete { // the best of the searches done so far is no best yet
			delete(a.Best, ds)
		}
	}
	a.leaderboard(scores)
	a.headToHead()
	a.paperGaps()
	return a
}

// leaderboard runs the Friedman test and both post-hoc tests on the tuned
// test means.
func (a *fairAnalysis) leaderboard(scores [][]float64) {
	f, err := stats.FriedmanTest(scores)
	if err != nil {
		a.LeaderErr = err
		return
	}
	a.Friedman = f
	if a.CD05, err = stats.CriticalDifference(f.K, f.N, 0.05); err != nil {
		a.LeaderErr = err
		return
	}
	if a.CD10, err = stats.CriticalDifference(f.K, f.N, 0.10); err != nil {
		a.LeaderErr = err
		return
	}
	a.NemenyiGroups = stats.Groups(f.Ranking.Average, stats.NemenyiSame(f.Ranking.Average, a.CD05))
	a.Pairwise, a.LeaderErr = stats.PairwiseWilcoxon(scores)
}

// pairedScores returns the scores of a and b on the splits both have.
func pairedScores(sa []int, a []float64, sb []int, b []float64) (x, y []float64) {
	id := func(s []int, i int) int {
		if s == nil {
			return i
		}
		return s[i]
	}
	at := map[int]float64{}
	for i, v := range b {
		at[id(sb, i)] = v
	}
	for i, v := range a {
		if w, ok := at[id(sa, i)]; ok {
			x, y = append(x, v), append(y, w)
		}
	}
	return x, y
}

// headToHead compares PCGCN with the best classic GNN (on validation) on
// every dataset over the paired splits, with Holm's correction over the
// datasets, and across the datasets on the mean differences. A dataset is
// compared only once PCGCN and every classic GNN of the study have their
// searches saved there: "best classic" is then the best of all of them, not
// of those done so far.
func (a *fairAnalysis) headToHead() {
	var ps []float64
	for _, d := range a.in.Datasets {
		pc := a.entry["pcgcn"][d]
		classic, bestVal := "", math.Inf(-1)
		all := true
		for _, m := range fairClassic() {
			if !slices.Contains(a.in.Models, m) {
				continue
			}
			e := a.entry[m][d]
			if e == nil || len(e.Val) == 0 {
				all = false
				continue
			}
			if v, _ := train.MeanStd(e.Val); v > bestVal {
				classic, bestVal = m, v
			}
		}
		if pc == nil || classic == "" || !all {
			a.Missing = append(a.Missing, d)
			continue
		}
		ce := a.entry[classic][d]
		x, y := pairedScores(pc.Splits, pc.Test, ce.Splits, ce.Test)
		paired, err := stats.PairedSplits(x, y)
		if err != nil {
			a.Missing = append(a.Missing, d)
			continue
		}
		a.Pairs = append(a.Pairs, fairPair{Dataset: d, Classic: classic, PCGCN: a.tuned("pcgcn", d), ClassicScore: a.tuned(classic, d), Paired: paired})
		ps = append(ps, paired.Wilcoxon.P)
	}
	adj := stats.Holm(ps)
	var mp, mc []float64
	for i := range a.Pairs {
		a.Pairs[i].Adjusted = adj[i]
		a.Pairs[i].Significant = adj[i] <= fairAlpha
		mp = append(mp, a.Pairs[i].PCGCN.Mean)
		mc = append(mc, a.Pairs[i].ClassicScore.Mean)
		a.AcrossMeanDiff += (a.Pairs[i].PCGCN.Mean - a.Pairs[i].ClassicScore.Mean) / float64(len(a.Pairs))
	}
	a.Across, a.AcrossErr = stats.WilcoxonSignedRank(mp, mc)
}

// paperGaps sets PCGCN tuned against the paper's row on the datasets the
// paper reports.
func (a *fairAnalysis) paperGaps() {
	for _, d := range a.in.Datasets {
		p, ok := a.in.Paper[d]
		t := a.tuned("pcgcn", d)
		if !ok || math.IsNaN(t.Mean) {
			continue
		}
		pre := a.preset("pcgcn", d)
		a.Gaps = append(a.Gaps, fairGap{Dataset: d, Paper: p, Preset: pre, Tuned: t,
			Closed: withinStd(p, t), PresetClosed: !math.IsNaN(pre.Mean) && withinStd(p, pre),
			PresetOutside: !math.IsNaN(pre.Mean) && a.outsideMark("pcgcn", d) != ""})
	}
}

// fairSection writes the fair study's section from in, and its
// critical-difference diagram to figPath (linked as figLink).
func fairSection(w io.Writer, in fairInput, figPath, figLink string) error {
	a := analyzeFair(in)
	if a.Saved == 0 {
		fmt.Fprintf(w, "_No search saved yet. The study is optional: days of CPU on 2 cores, resumable; `pcgcn reproduce --only %s --plan` estimates it and `pcgcn reproduce --only %s` runs it (or `--worker` processes on a cluster)._\n\n", fairName, fairName)
		return nil
	}
	fmt.Fprintln(w, "The question of issue 38: does pinning control help, given the same tuning budget? Every model is tuned by the same search on validation only; the chosen point is then trained on every split, and only then is its test score read.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, a.budgetLine())
	fmt.Fprintln(w)
	fmt.Fprintln(w, a.table())
	fmt.Fprintln(w, a.pointsTable())
	if err := a.writeLeaderboard(w, figPath, figLink); err != nil {
		return err
	}
	a.writeHeadToHead(w)
	a.writeGaps(w)
	fmt.Fprintln(w, a.verdict())
	return nil
}

// budgetLine states the trials per search and the CPU time spent.
func (a *fairAnalysis) budgetLine() string {
	var total float64
	var per []string
	for _, m := range a.in.Models {
		if s, ok := a.CPUByModel[m]; ok {
			total += s
			per = append(per, fmt.Sprintf("%s %s", m, cpuTime(s)))
		}
	}
	trials := fmt.Sprintf("%d trials per search (model × dataset), the same for every model", a.TrialsLo)
	if a.TrialsLo != a.TrialsHi {
		trials = fmt.Sprintf("from %d to %d trials per search: the budgets are **not** equal yet", a.TrialsLo, a.TrialsHi)
	}
	spent := fmt.Sprintf("CPU time %s in all", cpuTime(total))
	if a.Saved < a.Total {
		spent = fmt.Sprintf("CPU time %s over the searches saved so far", cpuTime(total))
	}
	return fmt.Sprintf("**Budget:** %s; %s (search and final training; per model: %s). %d of the %d (dataset, model) searches are saved. "+
		"The CPU time is what each cell recorded on the build that trained it; the kernels got faster while the study ran (BENCHMARKS.md, \"The fair study's wide models\"), "+
		"with the same numbers, and the later searches continue a promoted trial's splits where the previous rung ended them instead of training their first epochs again "+
		"(the same numbers too; each epoch is counted once), so it compares the models' costs only roughly: the trials are the budget.",
		trials, spent, strings.Join(per, ", "), a.Saved, a.Total)
}

// cpuTime writes seconds of CPU time as report.FormatDuration does
// (42s, 12m5s, 3h07m).
func cpuTime(s float64) string { return report.FormatDuration(time.Duration(s * float64(time.Second))) }

// metric names the metric of dataset d.
func (a *fairAnalysis) metric(d string) string {
	if m := a.in.Metrics[d]; m != "" {
		return m
	}
	return "accuracy"
}

// table is the tuned results: mean ± std over the splits, the preset's mean
// beside it, the best per dataset in bold, and the average rank.
func (a *fairAnalysis) table() string {
	models, sets, left := a.shown()
	head := append(append([]string{"model"}, sets...), "avg. rank")
	var rows [][]string
	for m, model := range a.in.Models {
		if !slices.Contains(models, model) {
			continue
		}
		row := []string{model}
		for _, d := range sets {
			t := a.tuned(model, d)
			cell := ms(t)
			if !math.IsNaN(t.Mean) && a.Best[d] == model {
				cell = "**" + cell + "**"
			}
			if p := a.preset(model, d); !math.IsNaN(p.Mean) {
				cell += fmt.Sprintf(" (%.2f%s)", p.Mean, a.outsideMark(model, d))
			}
			row = append(row, cell)
		}
		rank := "—"
		if a.Friedman.K > 0 {
			rank = fmt.Sprintf("%.2f", a.Friedman.Ranking.Average[m])
		}
		rows = append(rows, append(row, rank))
	}
	var b strings.Builder
	b.WriteString(report.Table(head, leftThenRight(1, len(head)), rows))
	fmt.Fprintf(&b, "\nEach cell: the tuned point's test %s, mean ± std over the splits, (the preset's mean: the main table's cell); the best tuned mean per dataset in bold, once every model's search on it is saved. Avg. rank: over the datasets where every model has a result (1 best; ties share the mean rank).\n", a.metricLabel())
	if left != "" {
		fmt.Fprintf(&b, "\n%s\n", left)
	}
	if a.anyOutside() {
		fmt.Fprintf(&b, "\n%s\n", outsideLegend)
	}
	return b.String()
}

// shown returns the models and datasets the table shows: those with a
// tuned or a preset result somewhere, in the study's order, and a sentence
// naming the others (an own graph run with a few models would otherwise
// show a table of dashes); all of them when nothing is saved at all.
func (a *fairAnalysis) shown() (models, sets []string, left string) {
	has := func(model, d string) bool {
		return !math.IsNaN(a.tuned(model, d).Mean) || !math.IsNaN(a.preset(model, d).Mean)
	}
	for _, m := range a.in.Models {
		if slices.ContainsFunc(a.in.Datasets, func(d string) bool { return has(m, d) }) {
			models = append(models, m)
		}
	}
	for _, d := range a.in.Datasets {
		if slices.ContainsFunc(a.in.Models, func(m string) bool { return has(m, d) }) {
			sets = append(sets, d)
		}
	}
	if len(models) == 0 {
		return a.in.Models, a.in.Datasets, ""
	}
	var parts []string
	if out := without(a.in.Models, models); len(out) > 0 {
		parts = append(parts, "the models "+strings.Join(out, ", "))
	}
	if out := without(a.in.Datasets, sets); len(out) > 0 {
		parts = append(parts, "the datasets "+strings.Join(out, ", "))
	}
	if len(parts) > 0 {
		left = "Not shown, with no search saved yet: " + strings.Join(parts, "; ") + "."
	}
	return models, sets, left
}

// without returns the elements of all not in some, in all's order.
func without(all, some []string) []string {
	var out []string
	for _, x := range all {
		if !slices.Contains(some, x) {
			out = append(out, x)
		}
	}
	return out
}

// metricLabel names the metric of the table: "accuracy", or "metric
// (accuracy; ROC AUC on a, b)" when some datasets are scored otherwise.
func (a *fairAnalysis) metricLabel() string {
	other := map[string][]string{}
	var names []string
	for _, d := range a.in.Datasets {
		if m := a.metric(d); m != "accuracy" {
			if other[m] == nil {
				names = append(names, m)
			}
			other[m] = append(other[m], d)
		}
	}
	if len(names) == 0 {
		return "accuracy"
	}
	parts := []string{"accuracy"}
	for _, m := range names {
		parts = append(parts, fmt.Sprintf("%s on %s", m, strings.Join(other[m], ", ")))
	}
	return "metric (" + strings.Join(parts, "; ") + ")"
}

// pointsTable lists the chosen hyperparameters of every search, folded.
func (a *fairAnalysis) pointsTable() string {
	var rows [][]string
	for _, model := range a.in.Models {
		for _, d := range a.in.Datasets {
			e := a.entry[model][d]
			if e == nil {
				continue
			}
			keys := make([]string, 0, len(e.Point))
			for k := range e.Point {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var kv []string
			for _, k := range keys {
				kv = append(kv, fmt.Sprintf("`%s=%s`", k, e.Point[k]))
			}
			point := strings.Join(kv, " ")
			if len(kv) == 0 {
				point = "the preset"
			}
			v, _ := train.MeanStd(e.Val)
			rows = append(rows, []string{model, d, point, fmt.Sprintf("%.2f", v), fmt.Sprint(e.Trials), cpuTime(e.CPUSeconds)})
		}
	}
	head := []string{"model", "dataset", "chosen point", "validation", "trials", "CPU time"}
	return "<details><summary>The chosen hyperparameters (mean validation score of the chosen point)</summary>\n\n" +
		report.Table(head, []report.Align{report.Left, report.Left, report.Left, report.Right, report.Right, report.Right}, rows) + "\n</details>\n"
}

// writeLeaderboard writes the ranks, the Friedman test, both post-hoc
// tests and the critical-difference diagram.
func (a *fairAnalysis) writeLeaderboard(w io.Writer, figPath, figLink string) error {
	fmt.Fprintln(w, "### Ranks, the Friedman test and the post-hoc tests")
	fmt.Fprintln(w)
	if a.LeaderErr != nil && a.Friedman.K == 0 {
		fmt.Fprintln(w, "Not yet: the Friedman test needs two datasets on which every model has a result.")
		fmt.Fprintln(w)
		return nil
	}
	f := a.Friedman
	if len(f.Ranking.Dropped) > 0 {
		var names []string
		for _, d := range f.Ranking.Dropped {
			names = append(names, a.in.Datasets[d])
		}
		fmt.Fprintf(w, "Ranked on the %d datasets where every model has a result (left out until complete: %s).\n", f.N, strings.Join(names, ", "))
	}
	rejects := "does not reject"
	if f.PF <= fairAlpha {
		rejects = "rejects"
	}
	fmt.Fprintf(w, "Friedman test over %d models and %d datasets: χ²(%d) = %.2f, %s; Iman–Davenport F(%.0f, %.0f) = %s, %s. At α = %.2f the Iman–Davenport test %s that all models perform alike.\n\n",
		f.K, f.N, f.K-1, f.ChiSquare, pvalEq(f.P), f.DF1, f.DF2, fnum(f.F), pvalEq(f.PF), fairAlpha, rejects)
	fmt.Fprintf(w, "Post-hoc tests (to be read only when the Friedman test rejects): Nemenyi's critical difference is %.2f at α = 0.05 (%.2f at α = 0.10; q_α from the studentized range, Demšar 2006); the Wilcoxon signed-rank test of every pair over the datasets, Holm-corrected over the %d pairs (Benavoli et al. 2016), finds %s.\n\n",
		a.CD05, a.CD10, f.K*(f.K-1)/2, a.wilcoxonPairs())
	if floor := wilcoxonHolmFloor(f.N, f.K); floor > fairAlpha {
		fmt.Fprintf(w, "With %d datasets the smallest two-sided p-value the exact signed-rank test can give is 2/2^%d, %.3g after Holm's factor of %d: no pair can be found different this way until more datasets are in.\n\n", f.N, f.N, floor, f.K*(f.K-1)/2)
	}
	pc := slices.Index(a.in.Models, "pcgcn")
	if pc >= 0 {
		better, worse := a.nemenyiAgainst(pc)
		wb, ww := a.wilcoxonAgainst(pc)
		lead := ""
		if f.PF > fairAlpha {
			lead = "The Friedman test does not reject, so no post-hoc difference is claimed; for the record, "
		}
		fmt.Fprintf(w, "%sPCGCN (average rank %.2f): under Nemenyi significantly better than %s and worse than %s; under Wilcoxon–Holm better than %s and worse than %s.\n\n",
			lead, f.Ranking.Average[pc], orNone(better), orNone(worse), orNone(wb), orNone(ww))
	}
	if err := report.CDDiagram(figPath, report.CDFigure{
		Title:  fmt.Sprintf("Tuned models: average rank over %d datasets", f.N),
		Models: a.in.Models, Ranks: f.Ranking.Average, Groups: a.NemenyiGroups,
		CD: a.CD05, CDLabel: "CD (Nemenyi, α = 0.05)"}); err != nil {
		return err
	}
	fmt.Fprintf(w, "![critical-difference diagram](%s)\n\nThe diagram: average ranks (1 best, at the left); a bar joins models whose ranks differ by less than Nemenyi's CD at α = 0.05, the scale bar above the axis. Nemenyi's test decides the bars (it is the one whose CD the axis can show); the Wilcoxon–Holm pairs above are the more powerful reading.\n\n", figLink)
	return nil
}

// wilcoxonHolmFloor is the smallest Holm-adjusted p-value a pairwise
// exact Wilcoxon test over n datasets can reach among k models: the
// smallest two-sided p, 2/2^n, times the k(k−1)/2 pairs.
func wilcoxonHolmFloor(n, k int) float64 {
	return math.Min(1, math.Ldexp(2, -n)*float64(k*(k-1)/2))
}

// nemenyiAgainst lists the models whose average rank differs from model
// m's by at least the CD, better and worse than m.
func (a *fairAnalysis) nemenyiAgainst(m int) (better, worse []string) {
	avg := a.Friedman.Ranking.Average
	for j, name := range a.in.Models {
		switch d := avg[j] - avg[m]; {
		case d >= a.CD05:
			better = append(better, name)
		case -d >= a.CD05:
			worse = append(worse, name)
		}
	}
	return better, worse
}

// wilcoxonAgainst lists the models significantly different from model m
// under Wilcoxon–Holm, worse-ranked (m better) and better-ranked.
func (a *fairAnalysis) wilcoxonAgainst(m int) (better, worse []string) {
	avg := a.Friedman.Ranking.Average
	for j, name := range a.in.Models {
		if j == m || a.Pairwise.Adjusted == nil || a.Pairwise.Adjusted[m][j] > fairAlpha {
			continue
		}
		if avg[j] > avg[m] {
			better = append(better, name)
		} else {
			worse = append(worse, name)
		}
	}
	return better, worse
}

// wilcoxonPairs lists the pairs significantly different under
// Wilcoxon–Holm, the better-ranked first.
func (a *fairAnalysis) wilcoxonPairs() string {
	if a.Pairwise.Adjusted == nil {
		return "nothing (too few datasets)"
	}
	avg := a.Friedman.Ranking.Average
	var out []string
	for i := range a.in.Models {
		for j := i + 1; j < len(a.in.Models); j++ {
			if p := a.Pairwise.Adjusted[i][j]; p <= fairAlpha {
				hi, lo := i, j
				if avg[j] < avg[i] {
					hi, lo = j, i
				}
				out = append(out, fmt.Sprintf("%s > %s (%s)", a.in.Models[hi], a.in.Models[lo], pvalEq(p)))
			}
		}
	}
	if len(out) == 0 {
		return fmt.Sprintf("no pair significantly different at α = %.2f", fairAlpha)
	}
	return "these pairs significantly different at α = 0.05: " + strings.Join(out, ", ")
}

// writeHeadToHead writes PCGCN against the best classic GNN per dataset.
func (a *fairAnalysis) writeHeadToHead(w io.Writer) {
	fmt.Fprintln(w, "### PCGCN against the best classic GNN")
	fmt.Fprintln(w)
	if len(a.Pairs) == 0 {
		fmt.Fprintln(w, "Not yet: no dataset has the searches of PCGCN and of every classic GNN (GCN, GraphSAGE, GAT) saved.")
		fmt.Fprintln(w)
		return
	}
	head := []string{"dataset", "best classic (validation)", "classic test", "PCGCN test", "PCGCN − classic", "paired t p", "Wilcoxon p", "Holm-adjusted", "significant"}
	var rows [][]string
	for _, p := range a.Pairs {
		sig := "no"
		if p.Significant {
			sig = "yes: PCGCN better"
			if p.Paired.MeanDiff < 0 {
				sig = "yes: PCGCN worse"
			}
		}
		rows = append(rows, []string{p.Dataset, p.Classic, ms(p.ClassicScore), ms(p.PCGCN), fmt.Sprintf("%+.2f", p.Paired.MeanDiff),
			pval(p.Paired.T.P), pval(p.Paired.Wilcoxon.P), pval(p.Adjusted), sig})
	}
	fmt.Fprint(w, report.Table(head, leftThenRight(2, len(head)), rows))
	lo, hi := a.Pairs[0].Paired.N, a.Pairs[0].Paired.N
	for _, p := range a.Pairs {
		lo, hi = min(lo, p.Paired.N), max(hi, p.Paired.N)
	}
	splits := fmt.Sprint(lo)
	if lo != hi {
		splits = fmt.Sprintf("%d to %d", lo, hi)
	}
	fmt.Fprintf(w, "\nEach row: the classic GNN (GCN, GraphSAGE, GAT, tuned in their classic form) with the best mean validation score, against tuned PCGCN on the %s splits both trained (paired: the same split). The Wilcoxon signed-rank test decides (two-sided, exact for up to 50 untied pairs), Holm-corrected over the %d datasets at α = %.2f; the paired t-test is shown beside it. Splits share training nodes, so both tests are somewhat too ready to find a difference (Nadeau and Bengio 2003).",
		splits, len(a.Pairs), fairAlpha)
	if len(a.Missing) > 0 {
		fmt.Fprintf(w, " Not compared yet: %s.", strings.Join(a.Missing, ", "))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w)
	if a.AcrossErr == nil {
		fmt.Fprintf(w, "Across the %d datasets (Wilcoxon signed-rank over the per-dataset means, Demšar 2006 Sec. 3.1.3): mean difference %+.2f points, %s.\n\n", len(a.Pairs), a.AcrossMeanDiff, pvalEq(a.Across.P))
	}
}

// writeGaps writes PCGCN tuned against the paper's row.
func (a *fairAnalysis) writeGaps(w io.Writer) {
	if len(a.Gaps) == 0 {
		return
	}
	fmt.Fprintln(w, "### PCGCN tuned against the paper's PCGCN")
	fmt.Fprintln(w)
	head := []string{"dataset", "paper", "preset (ours)", "tuned (ours)", "gap: preset", "gap: tuned", "closed"}
	var rows [][]string
	for _, g := range a.Gaps {
		closed := "no"
		if g.Closed {
			closed = "yes"
		}
		gp := "—"
		if !math.IsNaN(g.Preset.Mean) {
			gp = fmt.Sprintf("%.2f", g.Paper.Mean-g.Preset.Mean)
		}
		pre := ms(g.Preset)
		if !math.IsNaN(g.Preset.Mean) {
			pre += a.outsideMark("pcgcn", g.Dataset)
		}
		rows = append(rows, []string{g.Dataset, fmt.Sprintf("%.2f ± %.2f", g.Paper.Mean, g.Paper.Std), pre, ms(g.Tuned), gp, fmt.Sprintf("%.2f", g.Paper.Mean-g.Tuned.Mean), closed})
	}
	fmt.Fprint(w, report.Table(head, leftThenRight(1, len(head)), rows))
	fmt.Fprintln(w, "\nGap: the paper's mean less ours (positive: ours lower). Closed: the tuned mean is at least the paper's less one standard deviation (the larger of the paper's and ours).")
	for _, g := range a.Gaps {
		if !math.IsNaN(g.Preset.Mean) && a.outsideMark("pcgcn", g.Dataset) != "" {
			fmt.Fprintln(w, "\n"+outsideLegend)
			break
		}
	}
	fmt.Fprintln(w)
	for _, g := range a.Gaps {
		if s := gapSentence(g); s != "" {
			fmt.Fprintln(w, "- "+s)
		}
	}
	fmt.Fprintln(w)
}

// fairGapShown is the preset's shortfall from the paper, in points, above
// which a dataset's gap gets a sentence.
const fairGapShown = 2.0

// gapSentence says whether tuning closes a dataset's gap to the paper, for
// a dataset whose preset is more than fairGapShown points below it, and
// says so where tuning opened a gap the preset did not have (fairGap.opened).
func gapSentence(g fairGap) string {
	before, after := g.Paper.Mean-g.Preset.Mean, g.Paper.Mean-g.Tuned.Mean
	if g.opened() {
		where := fmt.Sprintf("%.2f points below", before)
		if before < 0 {
			where = fmt.Sprintf("%.2f points above", -before)
		}
		s := fmt.Sprintf("On %s our preset is %s the paper's %.2f, within one standard deviation; tuned, %.2f points below, beyond it: the search's choice scores %.2f points below the preset", g.Dataset, where, g.Paper.Mean, after, g.Preset.Mean-g.Tuned.Mean)
		if g.PresetOutside {
			s += ", whose cell was chosen on the directed graph, which no trial of the search uses (†)"
		}
		return s + "."
	}
	if math.IsNaN(g.Preset.Mean) || before <= fairGapShown {
		return ""
	}
	s := fmt.Sprintf("On %s our preset is %.2f points below the paper's %.2f; tuned, ", g.Dataset, before, g.Paper.Mean)
	switch {
	case after <= 0:
		s += fmt.Sprintf("it is %.2f points above it: tuning closes the gap.", -after)
	case g.Closed && g.PresetClosed:
		s += fmt.Sprintf("%.2f points below, within one standard deviation, as the preset already was: no gap beyond the spread for tuning to close.", after)
	case g.Closed:
		s += fmt.Sprintf("%.2f points below, within one standard deviation: tuning closes the gap.", after)
	case after < before:
		s += fmt.Sprintf("%.2f points below: tuning narrows the gap by %.2f points but does not close it.", after, before-after)
	default:
		s += fmt.Sprintf("%.2f points below: tuning does not narrow the gap.", after)
	}
	return s
}

// verdict answers the study's question from the head-to-head numbers:
// pinning control helps when tuned PCGCN is ahead of the best classic GNN
// across the datasets (Wilcoxon over the datasets at fairAlpha) and
// significantly worse on none; it does not help when the classic GNN is
// ahead across the datasets, or PCGCN is significantly worse somewhere and
// better nowhere; otherwise the evidence is inconclusive. A leaderboard
// rank alone never decides. The gaps to the paper follow.
func (a *fairAnalysis) verdict() string {
	if !slices.Contains(a.in.Models, "pcgcn") {
		return "**Verdict:** none: PCGCN is not among the models compared."
	}
	if a.Saved < a.Total || len(a.Missing) > 0 || len(a.Pairs) == 0 {
		return fmt.Sprintf("**Verdict:** not yet: %d of the %d (dataset, model) searches are saved.", a.Saved, a.Total)
	}
	wins, losses := 0, 0
	var winDs, lossDs []string
	for _, p := range a.Pairs {
		if !p.Significant {
			continue
		}
		if p.Paired.MeanDiff > 0 {
			wins++
			winDs = append(winDs, p.Dataset)
		} else {
			losses++
			lossDs = append(lossDs, p.Dataset)
		}
	}
	n := len(a.Pairs)
	acrossSig := a.AcrossErr == nil && a.Across.P <= fairAlpha
	across := "the test across them is undefined: every difference is zero"
	if a.AcrossErr == nil {
		across = fmt.Sprintf("Wilcoxon over the datasets, %s", pvalEq(a.Across.P))
	}
	per := fmt.Sprintf("after Holm's correction PCGCN is significantly better on %d of the %d datasets (%s) and significantly worse on %d (%s)", wins, n, orNone(winDs), losses, orNone(lossDs))
	var s string
	switch {
	case acrossSig && a.AcrossMeanDiff > 0 && losses == 0:
		s = fmt.Sprintf("pinning control helps here: tuned PCGCN is ahead of the best classic GNN, tuned with the same budget, across the %d datasets (%+.2f points on average; %s), and %s.", n, a.AcrossMeanDiff, across, per)
	case acrossSig && a.AcrossMeanDiff < 0:
		s = fmt.Sprintf("pinning control does not help here: the best classic GNN, tuned with the same budget, is ahead of tuned PCGCN across the %d datasets (%.2f points on average; %s), and %s.", n, -a.AcrossMeanDiff, across, per)
	case wins == 0 && losses > 0:
		s = fmt.Sprintf("pinning control does not help here: %s; across the datasets the difference is %+.2f points on average (%s).", per, a.AcrossMeanDiff, across)
	case acrossSig:
		s = fmt.Sprintf("inconclusive (mixed): tuned PCGCN is ahead of the best classic GNN across the %d datasets (%+.2f points on average; %s), but %s.", n, a.AcrossMeanDiff, across, per)
	default:
		if a.AcrossErr == nil {
			across += fmt.Sprintf(", above α = %.2f", fairAlpha)
		}
		s = fmt.Sprintf("inconclusive: tuned PCGCN and the best classic GNN, tuned with the same budget, do not differ significantly across the %d datasets (%+.2f points on average; %s), and %s.", n, a.AcrossMeanDiff, across, per)
		if pc := slices.Index(a.in.Models, "pcgcn"); pc >= 0 && a.Friedman.K > 0 && bestRanked(a.Friedman.Ranking.Average) == pc {
			s += " PCGCN has the best average rank, but that alone is not evidence that it is better."
		}
	}
	var closed, open, spread []string
	for _, g := range a.Gaps {
		if math.IsNaN(g.Preset.Mean) || g.Paper.Mean-g.Preset.Mean <= fairGapShown {
			continue
		}
		switch {
		case g.opened():
			continue // said below
		case g.Closed && g.PresetClosed && g.Tuned.Mean < g.Paper.Mean:
			spread = append(spread, g.Dataset)
		case g.Closed:
			closed = append(closed, g.Dataset)
		default:
			open = append(open, g.Dataset)
		}
	}
	if len(closed)+len(open) > 0 {
		s += fmt.Sprintf(" Against the paper's PCGCN row, tuning closes the gap on %s and leaves it open on %s.", orNone(closed), orNone(open))
	}
	if len(spread) > 0 {
		s += fmt.Sprintf(" On %s the preset was already within one standard deviation of the paper's row.", strings.Join(spread, ", "))
	}
	var opened []string
	for _, g := range a.Gaps {
		if g.opened() {
			opened = append(opened, g.Dataset)
		}
	}
	if len(opened) > 0 {
		s += fmt.Sprintf(" On %s the tuned PCGCN falls more than one standard deviation below the paper's row, where its preset was within one.", strings.Join(opened, ", "))
	}
	return "**Verdict:** " + s
}

// bestRanked is the index of the lowest average rank (the first of ties).
func bestRanked(avg []float64) int {
	best := 0
	for i, v := range avg {
		if v < avg[best] {
			best = i
		}
	}
	return best
}

// pval formats a p-value: three significant digits, "< 0.0001" below.
func pval(p float64) string {
	switch {
	case math.IsNaN(p):
		return "—"
	case p < 1e-4:
		return "< 0.0001"
	}
	return fmt.Sprintf("%.3g", p)
}

// pvalEq is "p = 0.0123", or "p < 0.0001".
func pvalEq(p float64) string {
	if v := pval(p); strings.HasPrefix(v, "<") {
		return "p " + v
	}
	return "p = " + pval(p)
}

// fnum formats a statistic that may be infinite.
func fnum(v float64) string {
	if math.IsInf(v, 1) {
		return "∞"
	}
	return fmt.Sprintf("%.2f", v)
}
