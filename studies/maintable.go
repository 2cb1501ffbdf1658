package studies

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/paper"
	"github.com/pcgcn/pcgcn/report"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/train"
)

// mainStudy names the main table's cells, which several studies list: the
// homophily-bucket and label-distance studies read their per-node outputs,
// and the missing-class, ablation and partial-control studies compare with
// their presets.
const mainStudy = "main"

// mainTableStudy is the paper's main table: every model on every offline
// dataset of the paper, each cell the better on validation of its candidates
// (see candidates.go).
func mainTableStudy() study {
	return study{name: mainStudy,
		help: "every model on every offline dataset of the paper (the main\n" +
			"table). Each model is trained with its preset and with feature\n" +
			"row normalisation flipped; the table keeps the candidate with the\n" +
			"better mean validation metric (--preset-only: presets only; signed\n" +
			"features of a --data graph, which normalisation leaves raw: once)",
		title: "Main table (Table \"Mean accuracy±stdev\")", cells: mainCells, section: renderMain,
		candidates: mainCandidates, outputs: mainOutputs}
}

// paperDatasets are the paper's datasets available in the offline mirror, in
// the order of the paper's main table.
func paperDatasets() []string {
	return []string{"chameleon", "squirrel", "actor", "texas", "wisconsin", "cornell", "cora", "citeseer"}
}

// mainTableCells are main-table cells: every model on every dataset, default
// configuration (the dataset's preset). The cells keep per-node test
// outputs, from which the homophily-bucket and label-distance studies are
// computed without training again.
func mainTableCells(models, datasets []string, splits []int) []experiments.Cell {
	var cells []experiments.Cell
	for _, d := range datasets {
		for _, m := range models {
			cells = append(cells, experiments.Cell{Study: mainStudy, Dataset: d, Model: m, Splits: splits}.WithOpt(optCollect, true))
		}
	}
	return cells
}

func mainDatasets(p *plan) []string { return p.datasets(paperDatasets()) }

// mainModels are the main table's models.
func (p *plan) mainModels() []string {
	switch {
	case len(p.opt.Models) > 0:
		return p.opt.Models
	case p.opt.Quick:
		return quickModels()
	}
	return models.NewRegistry().Names()
}

func mainCells(p *plan) []experiments.Cell {
	return mainTableCells(p.mainModels(), mainDatasets(p), p.splits)
}

func renderMain(p *plan, w io.Writer) error {
	names := p.mainModels()
	rs := p.results(mainTableCells(names, mainDatasets(p), p.splits))
	if len(rs) == 0 {
		pending(w, mainStudy)
		return nil
	}
	fmt.Fprintln(w, "The paper's claim: PCGCN has the best average rank (2.0) and is best on the heterophilous graphs. Each cell: ours (the paper's).")
	fmt.Fprintln(w)
	speed, err := readBenchSpeed(filepath.Join(p.opt.ResultsDir, "speed_models.json"))
	if err != nil {
		return err
	}
	fmt.Fprintln(w, mainTable(rs, names, mainDatasets(p), speed))
	fmt.Fprintln(w, mainVerdict(rs, names, mainDatasets(p)))
	return nil
}

// mainVerdict counts the datasets where every model has a result and PCGCN's
// mean test metric is the best (level with the best counts).
func mainVerdict(rs []*experiments.Result, names, dss []string) string {
	best, total := 0, 0
	for _, d := range dss {
		top := math.Inf(-1)
		pc := math.NaN()
		have := 0
		for _, r := range rs {
			if r.Cell.Dataset != d || !slices.Contains(names, r.Cell.Model) {
				continue
			}
			have++
			top = math.Max(top, r.TestMean)
			if r.Cell.Model == "pcgcn" {
				pc = r.TestMean
			}
		}
		if have < len(names) { // only datasets where every model has a result
			continue
		}
		total++
		if pc == top {
			best++
		}
	}
	if total == 0 {
		return "**Verdict:** not yet: no dataset has a result for every model."
	}
	return fmt.Sprintf("**Verdict:** PCGCN has the best mean test %s on %d of the %d datasets where every model has a result (the paper: on 7 of its 10).", metricName(rs, dss), best, total)
}

// resultIndex keys results by model and dataset.
func resultIndex(rs []*experiments.Result) map[string]map[string]*experiments.Result {
	m := map[string]map[string]*experiments.Result{}
	for _, r := range rs {
		if r == nil {
			continue
		}
		if m[r.Cell.Model] == nil {
			m[r.Cell.Model] = map[string]*experiments.Result{}
		}
		m[r.Cell.Model][r.Cell.Dataset] = r
	}
	return m
}

// mainTable renders every model × dataset as "ours (paper)" with the average
// rank of our means over the datasets (rank 1 best; ties share the mean rank),
// the paper's average rank and the ms per epoch: the mean over the datasets
// of the bench medians in speed when it has the model, else of the training
// runs' own step times (marked "run").
func mainTable(rs []*experiments.Result, models, datasets []string, speed []benchSpeed) string {
	var b strings.Builder
	idx := resultIndex(rs)
	pap := paper.MainTable()
	ranks := averageRanks(idx, models, datasets)
	bench := speedIndex(speed)
	head := append(append([]string{"model"}, datasets...), "avg. rank (ours)", "avg. rank (paper)", "ms / epoch (mean over datasets)")
	var rows [][]string
	for _, m := range models {
		row := []string{m}
		var ms []float64
		for _, d := range datasets {
			cell := "—"
			if r := idx[m][d]; r != nil {
				cell = fmt.Sprintf("%.2f ± %.2f%s", r.TestMean, r.TestStd, selectionMark(r))
				ms = append(ms, r.MsPerEpoch)
				if p, ok := pap[m][d]; ok {
					cell += fmt.Sprintf(" (%.2f)", p.Mean)
					if math.Abs(r.TestMean-p.Mean) > 2*math.Max(p.Std, r.TestStd) {
						cell += " ⚠"
					}
				}
			} else if p, ok := pap[m][d]; ok {
				cell = fmt.Sprintf("— (%.2f)", p.Mean)
			}
			row = append(row, cell)
		}
		rank := "—"
		if v, ok := ranks[m]; ok {
			rank = fmt.Sprintf("%.1f", v)
		}
		prank := "—"
		if v, ok := paper.AverageRank()[m]; ok {
			prank = fmt.Sprintf("%.1f", v)
		}
		msCell := "—"
		var bms []float64
		for _, d := range datasets {
			if v, ok := bench[m][d]; ok {
				bms = append(bms, v)
			}
		}
		switch {
		case len(bms) > 0:
			msCell = fmt.Sprintf("%.2f", meanOf(bms))
		case len(ms) > 0:
			msCell = fmt.Sprintf("%.2f (run)", meanOf(ms))
		}
		row = append(row, rank, prank, msCell)
		rows = append(rows, row)
	}
	b.WriteString(report.Table(head, leftThenRight(1, len(head)), rows))
	metric := metricName(rs, datasets)
	legend := selectionLegend
	if metric != "accuracy" {
		legend = strings.Replace(legend, "validation accuracy", "validation "+strings.TrimSuffix(strings.SplitN(metric, " (", 2)[0], " "), 1)
	}
	fmt.Fprintln(&b, "\nEach cell: our test "+metric+", mean ± std over the splits, (the paper's mean). "+legend+" ⚠ marks a difference larger than 2 standard deviations (the larger of the two); docs/results.md discusses each. ms / epoch: the `pcgcn bench` medians of scripts/bench_models.sh (one run, same machine and threads) averaged over the datasets; \"(run)\": the mean step time of the training runs, which shared the machine.")
	return b.String()
}

// averageRanks ranks the models on each dataset where all of them have a result.
func averageRanks(idx map[string]map[string]*experiments.Result, models, datasets []string) map[string]float64 {
	sum := map[string]float64{}
	n := 0
	for _, d := range datasets {
		var have []string
		for _, m := range models {
			if idx[m][d] != nil {
				have = append(have, m)
			}
		}
		if len(have) != len(models) || len(have) == 0 {
			continue
		}
		n++
		sort.SliceStable(have, func(i, j int) bool { return idx[have[i]][d].TestMean > idx[have[j]][d].TestMean })
		for i := 0; i < len(have); {
			j := i
			for j < len(have) && idx[have[j]][d].TestMean == idx[have[i]][d].TestMean {
				j++
			}
			r := float64(i+1+j) / 2
			for k := i; k < j; k++ {
				sum[have[k]] += r
			}
			i = j
		}
	}
	out := map[string]float64{}
	if n == 0 {
		return out
	}
	for m, s := range sum {
		out[m] = s / float64(n)
	}
	return out
}

// selectionLegend explains the marks of selectionMark.
const selectionLegend = "ʳ: raw features, ⁿ: row-normalised features, whichever had the higher mean validation accuracy (both are trained; test plays no part); ᵈ: trained on the directed Wikipedia graph (each page aggregating over the pages it links to), as GCNII's and GGCN's authors' code does, and for PCGCN where it beat the symmetrised graph on validation (both trained); * a candidate has not run yet."

// selectionMark marks a main-table result with the feature preprocessing
// chosen on validation (see experiments.Selection): "ʳ" raw, "ⁿ"
// row-normalised, then "ᵈ" when the result is the directed twin's
// (Selection.Dataset), and "*" while a candidate is still missing. Results
// chosen without a selection get no mark.
func selectionMark(r *experiments.Result) string {
	if r.Selection == nil {
		return ""
	}
	var cfg struct {
		NormalizeFeatures bool `json:"normalize_features"`
	}
	b, err := json.Marshal(r.Config)
	if err != nil || json.Unmarshal(b, &cfg) != nil {
		return ""
	}
	m := "ʳ"
	if cfg.NormalizeFeatures {
		m = "ⁿ"
	}
	if r.Selection.Dataset != "" {
		m += "ᵈ"
	}
	if !r.Selection.Complete {
		m += "*"
	}
	return m
}

// metricName names the metric the results on the given datasets are scored
// in, for a sentence such as "our test <metricName>": "accuracy" when every
// one is scored by accuracy (also when there are none), "ROC AUC" when every
// one is scored by ROC AUC, else "metric (accuracy; ROC AUC on a, b)". A
// result saved before results recorded their metric counts as accuracy.
func metricName(rs []*experiments.Result, dss []string) string {
	var auc []string
	acc := 0
	for _, r := range rs {
		if r == nil || !slices.Contains(dss, r.Cell.Dataset) {
			continue
		}
		if r.Metric == datasets.ROCAUC {
			if !slices.Contains(auc, r.Cell.Dataset) {
				auc = append(auc, r.Cell.Dataset)
			}
		} else {
			acc++
		}
	}
	switch {
	case len(auc) == 0:
		return "accuracy"
	case acc == 0:
		return "ROC AUC"
	}
	return fmt.Sprintf("metric (accuracy; ROC AUC on %s)", strings.Join(auc, ", "))
}

// benchSpeed is one line of scripts/bench_models.sh (results/speed_models.json):
// `pcgcn bench --json` for a model on a dataset.
type benchSpeed struct {
	Dataset  string  `json:"dataset"`
	Model    string  `json:"model"`
	Threads  int     `json:"threads"`
	MedianMs float64 `json:"median_ms"`
	// Machine is where it was measured; empty in rows written before it
	// was recorded.
	Machine string `json:"machine,omitempty"`
}

// readBenchSpeed reads results/speed_models.json; a missing file gives no
// rows and no error.
func readBenchSpeed(path string) ([]benchSpeed, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var rows []benchSpeed
	if err := json.Unmarshal(b, &rows); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rows, nil
}

// speedIndex keys bench medians by model and dataset.
func speedIndex(rows []benchSpeed) map[string]map[string]float64 {
	m := map[string]map[string]float64{}
	for _, r := range rows {
		model := r.Model
		if strings.HasPrefix(model, "pcgcn-") { // bench labels PCGCN with its assignment mode
			model = "pcgcn"
		}
		if m[model] == nil {
			m[model] = map[string]float64{}
		}
		m[model][r.Dataset] = r.MedianMs
	}
	return m
}

// meanOf is the mean of v (NaN when empty).
func meanOf(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// optCollect is the main table's cells' setting: keep each split's per-node
// test outputs, from which the homophily-bucket and label-distance studies
// are computed without training again.
const optCollect = "collect"

// mainOutputs keeps the per-node test outputs of a cell that collects them.
func mainOutputs(p *plan, c experiments.Cell, r *train.Result, sr *experiments.SplitResult) error {
	if flag(c, optCollect) {
		sr.Nodes = nodeOutputs(r, p.runner.Threads)
	}
	return nil
}

// nodeOutputs evaluates the trained model and records test-node correctness.
func nodeOutputs(r *train.Result, threads int) *experiments.NodeOutputs {
	t := autograd.NewTape(tensor.Exec{Threads: threads})
	logits := train.Logits(t, r.Model)
	pred := train.Predict(logits)
	no := &experiments.NodeOutputs{Test: r.Data.Test, Correct: make([]bool, len(r.Data.Test))}
	for k, i := range r.Data.Test {
		no.Correct[k] = pred[i] == r.Data.Graph.Y[i]
	}
	return no
}
