// Package report renders saved experiment results as Markdown tables and
// figures next to the numbers the paper reports.
package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/paper"
	"github.com/pcgcn/pcgcn/tensor"
)

// SpeedRow is one dataset of the side-by-side speed comparison with the
// PyTorch reference (written by scripts/bench_vs_pytorch.sh).
type SpeedRow struct {
	Dataset      string  `json:"dataset"`
	Model        string  `json:"model"`
	Threads      int     `json:"threads"`
	OursMs       float64 `json:"ours_median_ms"`
	TorchMs      float64 `json:"torch_median_ms"`
	OursRSSMiB   float64 `json:"ours_peak_rss_mib"`
	TorchRSSMiB  float64 `json:"torch_peak_rss_mib"`
	SpeedupRatio float64 `json:"speedup"`
	// Machine is where the pair was measured (`pcgcn bench`'s machine
	// field); empty in rows written before it was recorded.
	Machine string `json:"machine,omitempty"`
}

// StaleNote is the header sentence on the stale of the saved cells a page
// renders (experiments.Stale: computed by other numerics than this build's,
// or not recording theirs), empty when there are none.
func StaleNote(stale, saved int) string {
	if stale == 0 {
		return ""
	}
	return fmt.Sprintf("%d of these %d cells were computed by other numerics than this build's (%s) or do not record theirs (saved before cells recorded it); training them again gives numbers within their spread, not bit for bit the same, and `pcgcn reproduce --refresh` does so (README, Reproducibility).", stale, saved, tensor.Numerics())
}

// index keys results by model and dataset.
func index(rs []*experiments.Result) map[string]map[string]*experiments.Result {
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

// PCGCNSection compares PCGCN with the paper's PCGCN row.
func PCGCNSection(rs []*experiments.Result, datasets []string) string {
	var b strings.Builder
	idx := index(rs)["pcgcn"]
	pap := paper.MainTable()["pcgcn"]
	fmt.Fprintln(&b, "| dataset | ours: test acc. % | paper | difference | within paper's mean ± 2 std | ms / epoch (during the run) |")
	fmt.Fprintln(&b, "| --- | ---: | ---: | ---: | :---: | ---: |")
	for _, d := range datasets {
		r := idx[d]
		p, ok := pap[d]
		if r == nil {
			continue
		}
		ours := fmt.Sprintf("%.2f ± %.2f%s", r.TestMean, r.TestStd, SelectionMark(r))
		if !ok {
			fmt.Fprintf(&b, "| %s | %s | — | — | — | %.2f |\n", d, ours, r.MsPerEpoch)
			continue
		}
		diff := r.TestMean - p.Mean
		within := "yes"
		if math.Abs(diff) > 2*p.Std {
			within = "**no** (see [fidelity](fidelity.md))"
		}
		fmt.Fprintf(&b, "| %s | %s | %.2f ± %.2f | %+.2f | %s | %.2f |\n", d, ours, p.Mean, p.Std, diff, within, r.MsPerEpoch)
	}
	var secs float64
	n := 0
	for _, d := range datasets {
		if r := idx[d]; r != nil {
			secs += r.Seconds
			n++
		}
	}
	if n > 0 {
		fmt.Fprintf(&b, "\nTraining and evaluating PCGCN on these %d datasets × their splits took %.1f minutes in all (sum of the cells' wall times, one process, 2 threads).\n", n, secs/60)
	}
	return b.String()
}

// ExtraSection reports the datasets beyond the paper, with ROC AUC for the
// binary ones.
func ExtraSection(rs []*experiments.Result, models, dss []string) string {
	var b strings.Builder
	b.WriteString(metricTable(rs, models, dss))
	over := "the dataset's 10 splits"
	if n := splitsRun(rs, models, dss); n != 10 && n != 0 {
		over = fmt.Sprintf("the %s of the dataset's 10 splits run", n2s(n))
	}
	fmt.Fprintln(&b, "\nMean ± std over "+over+" (the masks in its npz: about 48/32/20 % of the nodes for training/validation/test on the filtered graphs, 50/25/25 on Minesweeper and Tolokers). ʳ: raw features, ⁿ: row-normalised features, whichever had the higher mean validation metric (both are trained; test plays no part); ᵈ: the directed graph (out-links), the graph of GCNII's and GGCN's authors, and PCGCN's where it wins on validation; * a candidate has not run yet. Every model uses a preset of the paper's datasets (the filtered graphs their parent's; see each model's Preset): none was tuned on these datasets, so the numbers are not comparable with the tuned ones of Platonov et al.")
	return b.String()
}

// OwnSection reports graphs given by path (--data): per model and graph the
// metric the cell was selected and scored on, the test metric and the test
// accuracy, over the splits the cells ran. It is "" when none of dss has a
// result.
func OwnSection(rs []*experiments.Result, models, dss []string) string {
	idx := index(rs)
	have := false
	for _, m := range models {
		for _, d := range dss {
			have = have || idx[m][d] != nil
		}
	}
	if !have {
		return ""
	}
	var b strings.Builder
	b.WriteString(metricTable(rs, models, dss))
	fmt.Fprintln(&b, "\nMean ± std over the splits the cells ran. ʳ: raw features, ⁿ: row-normalised features, whichever had the higher mean validation metric (both are trained; test plays no part); no mark: one candidate (signed features, which row normalisation leaves raw, are trained once); * a candidate has not run yet. Every model uses its general preset: none was tuned on these graphs.")
	return b.String()
}

// splitsRun is the number of splits the results of models on dss ran, or
// -1 when they differ (0 without results, or results without their splits).
func splitsRun(rs []*experiments.Result, models, dss []string) int {
	n := 0
	for _, r := range rs {
		if r == nil || !slices.Contains(models, r.Cell.Model) || !slices.Contains(dss, r.Cell.Dataset) {
			continue
		}
		switch k := len(r.PerSplit); {
		case n == 0:
			n = k
		case n != k:
			return -1
		}
	}
	return n
}

// n2s writes a split count for splitsRun's sentence.
func n2s(n int) string {
	if n < 0 {
		return "varying numbers"
	}
	return fmt.Sprint(n)
}

// metricTable is the table of ExtraSection and OwnSection: one row per
// model and dataset with a result.
func metricTable(rs []*experiments.Result, models, dss []string) string {
	var b strings.Builder
	idx := index(rs)
	fmt.Fprintln(&b, "| model | dataset | metric used for selection | test metric % | test accuracy % | ms / epoch |")
	fmt.Fprintln(&b, "| --- | --- | --- | ---: | ---: | ---: |")
	for _, m := range models {
		for _, d := range dss {
			r := idx[m][d]
			if r == nil {
				continue
			}
			metric := "accuracy"
			if r.Metric == datasets.ROCAUC {
				metric = "ROC AUC"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %.2f ± %.2f%s | %.2f ± %.2f | %.2f |\n", m, d, metric, r.TestMean, r.TestStd, SelectionMark(r), r.TestAccMean, r.TestAccStd, r.MsPerEpoch)
		}
	}
	return b.String()
}

// ModelSpeed is one line of scripts/bench_models.sh (results/speed_models.json):
// `pcgcn bench --json` for a model on a dataset.
type ModelSpeed struct {
	Dataset  string  `json:"dataset"`
	Model    string  `json:"model"`
	Threads  int     `json:"threads"`
	MedianMs float64 `json:"median_ms"`
	// Machine is where it was measured; empty in rows written before it
	// was recorded.
	Machine string `json:"machine,omitempty"`
}

// ReadModelSpeed reads results/speed_models.json; a missing file gives no
// rows and no error.
func ReadModelSpeed(path string) ([]ModelSpeed, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var rows []ModelSpeed
	if err := json.Unmarshal(b, &rows); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rows, nil
}

// speedIndex keys bench medians by model and dataset.
func speedIndex(rows []ModelSpeed) map[string]map[string]float64 {
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

// ModelSpeedTable renders the bench medians of every model × dataset.
func ModelSpeedTable(rows []ModelSpeed, models, datasets []string) string {
	var b strings.Builder
	idx := speedIndex(rows)
	threads := 0
	if len(rows) > 0 {
		threads = rows[0].Threads
	}
	fmt.Fprintf(&b, "| model | %s |\n", strings.Join(datasets, " | "))
	fmt.Fprintf(&b, "| --- |%s\n", strings.Repeat(" ---: |", len(datasets)))
	for _, m := range models {
		row := []string{m}
		for _, d := range datasets {
			if v, ok := idx[m][d]; ok {
				row = append(row, fmt.Sprintf("%.2f", v))
			} else {
				row = append(row, "—")
			}
		}
		fmt.Fprintf(&b, "| %s |\n", strings.Join(row, " | "))
	}
	machines := make([]string, len(rows))
	for i, r := range rows {
		machines[i] = r.Machine
	}
	fmt.Fprintf(&b, "\nMedian ms per training epoch (forward, backward, Adam step; no evaluation), %d threads, all measured in one run of `scripts/bench_models.sh`%s.\n", threads, MeasuredOn(machines))
	return b.String()
}

// MeasuredOn names the machine a set of speed rows was measured on, as
// " on MACHINE" (or " on A, B" when they disagree), or "" when no row
// records it (rows written before the bench JSON carried it).
func MeasuredOn(machines []string) string {
	var seen []string
	for _, m := range machines {
		if m != "" && !slices.Contains(seen, m) {
			seen = append(seen, m)
		}
	}
	if len(seen) == 0 {
		return ""
	}
	return " on " + strings.Join(seen, ", ")
}

// MainTable renders every model × dataset as "ours (paper)" with the average
// rank of our means over the datasets (rank 1 best; ties share the mean rank),
// the paper's average rank and the ms per epoch: the mean over the datasets
// of the bench medians in speed when it has the model, else of the training
// runs' own step times (marked "run").
func MainTable(rs []*experiments.Result, models, datasets []string, speed []ModelSpeed) string {
	var b strings.Builder
	idx := index(rs)
	pap := paper.MainTable()
	ranks := averageRanks(idx, models, datasets)
	bench := speedIndex(speed)
	fmt.Fprintf(&b, "| model | %s | avg. rank (ours) | avg. rank (paper) | ms / epoch (mean over datasets) |\n", strings.Join(datasets, " | "))
	fmt.Fprintf(&b, "| --- |%s ---: | ---: | ---: |\n", strings.Repeat(" ---: |", len(datasets)))
	for _, m := range models {
		row := []string{m}
		var ms []float64
		for _, d := range datasets {
			cell := "—"
			if r := idx[m][d]; r != nil {
				cell = fmt.Sprintf("%.2f ± %.2f%s", r.TestMean, r.TestStd, SelectionMark(r))
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
			msCell = fmt.Sprintf("%.2f", mean(bms))
		case len(ms) > 0:
			msCell = fmt.Sprintf("%.2f (run)", mean(ms))
		}
		row = append(row, rank, prank, msCell)
		fmt.Fprintf(&b, "| %s |\n", strings.Join(row, " | "))
	}
	metric := MetricName(rs, datasets)
	legend := SelectionLegend
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

// SpeedSection renders the side-by-side speed comparison.
func SpeedSection(rows []SpeedRow) string {
	var b strings.Builder
	fmt.Fprintln(&b, "| dataset | model | threads | pcgcn (Go) ms/epoch | PyTorch ms/epoch | speed-up | pcgcn peak RSS MiB | PyTorch peak RSS MiB |")
	fmt.Fprintln(&b, "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %d | %.2f | %.2f | %.2f× | %.0f | %.0f |\n", r.Dataset, r.Model, r.Threads, r.OursMs, r.TorchMs, r.SpeedupRatio, r.OursRSSMiB, r.TorchRSSMiB)
	}
	return b.String()
}

// SelectionLegend explains the marks of SelectionMark.
const SelectionLegend = "ʳ: raw features, ⁿ: row-normalised features, whichever had the higher mean validation accuracy (both are trained; test plays no part); ᵈ: trained on the directed Wikipedia graph (each page aggregating over the pages it links to), as GCNII's and GGCN's authors' code does, and for PCGCN where it beat the symmetrised graph on validation (both trained); * a candidate has not run yet."

// SelectionMark marks a main-table result with the feature preprocessing
// chosen on validation (see experiments.Selection): "ʳ" raw, "ⁿ"
// row-normalised, then "ᵈ" when the result is the directed twin's
// (Selection.Dataset), and "*" while a candidate is still missing. Results
// chosen without a selection get no mark.
func SelectionMark(r *experiments.Result) string {
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

func mean(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}
