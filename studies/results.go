package studies

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/paper"
	"github.com/pcgcn/pcgcn/report"
	"github.com/pcgcn/pcgcn/train"
)

// resultsPageStudy is docs/results.md: the main table on the paper's
// datasets and on the extra heterophily benchmarks, PCGCN against the
// paper's row and the speed comparisons. It goes with the main table.
func resultsPageStudy() study {
	return study{name: "results", help: "docs/results.md and results/main.json: the main table, also on\n" +
		"the four extra heterophily benchmarks with PCGCN, MLP, GCN, GPRGNN\n" +
		"and LINKX (every model with --datasets), and the speed comparison\n" +
		"(results/speed.json, written by scripts/bench_vs_pytorch.sh);\n" +
		"selected with main",
		with: mainStudy, cells: resultsPageCells, page: writeResultsPage}
}

// extraDatasets are the heterophily-benchmark graphs beyond the paper.
func extraDatasets() []string {
	return []string{"chameleon-filtered", "squirrel-filtered", "minesweeper", "tolokers"}
}

// extraModels are the models run on the extra datasets by default: PCGCN
// and a cheap, strong baseline of each kind (no graph, spectral filter,
// propagation, adjacency-row MLP). Running all sixteen there would cost more
// than the whole paper table (Minesweeper and Tolokers have 10–12k nodes).
func extraModels() []string { return []string{"pcgcn", "mlp", "gcn", "gprgnn", "linkx"} }

// resultsPageCells are the main table over the datasets given (quick mode:
// the small graphs), or the paper's datasets with the main table's models
// and the extra datasets with extraModels.
func resultsPageCells(p *plan) []experiments.Cell {
	ds, mm := p.opt.Datasets, p.mainModels()
	switch {
	case len(ds) == 0 && len(p.opt.Models) == 0 && !p.opt.Quick:
		return append(mainTableCells(mm, paperDatasets(), p.splits), mainTableCells(extraModels(), extraDatasets(), p.splits)...)
	case len(ds) == 0 && !p.opt.Quick:
		ds = append(paperDatasets(), extraDatasets()...)
	case len(ds) == 0:
		ds = quickDatasets()
	}
	return mainTableCells(mm, ds, p.splits)
}

// writeResultsPage gathers every saved main-table cell of every registered
// model (not only this run's) and writes results/main.json and results.md,
// with the hand-written discussion of results-discussion.md in
// Options.DocsDir.
func writeResultsPage(p *plan) error {
	mm := models.NewRegistry().Names()
	own := ownGraphs(p.opt.Datasets)
	var rs []*experiments.Result
	var compute float64
	for _, c := range mainTableCells(mm, append(append(paperDatasets(), extraDatasets()...), own...), p.splits) {
		if r := p.load(c); r != nil {
			rs = append(rs, r)
		}
		for _, k := range p.runner.Candidates(c) { // every candidate's training time
			if r := p.loadExact(k); r != nil {
				compute += r.Seconds
			}
		}
	}
	b, err := json.MarshalIndent(rs, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(p.runner.KeyDir(), 0o755); err != nil {
		return err
	}
	if err := experiments.WriteFileAtomic(filepath.Join(p.runner.KeyDir(), "main.json"), append(b, '\n')); err != nil {
		return err
	}
	var speed []speedPair
	speedPath := filepath.Join(p.opt.ResultsDir, "speed.json")
	if sb, err := os.ReadFile(speedPath); err == nil {
		if err := json.Unmarshal(sb, &speed); err != nil {
			return fmt.Errorf("%s: %w", speedPath, err)
		}
	}
	modelSpeed, err := readBenchSpeed(filepath.Join(p.opt.ResultsDir, "speed_models.json"))
	if err != nil {
		return err
	}
	var discussion []byte
	if !p.opt.Quick { // the discussion is of the full run's numbers
		discussion, _ = os.ReadFile(filepath.Join(p.opt.DocsDir, "results-discussion.md"))
	}
	run := p.header(mainStudy, rs, compute)
	run.Protocol = p.protocol(own)
	return p.write("results.md", resultsPage(run, rs, mm, own, speed, modelSpeed, string(discussion)))
}

// ownGraphs returns the datasets given as paths (--data).
func ownGraphs(ds []string) []string {
	var out []string
	for _, d := range ds {
		if datasets.IsPath(d) {
			out = append(out, d)
		}
	}
	return out
}

// fullProtocol is the results page's protocol of a full run (the 10
// standard splits, the default budget, no graph given by path).
const fullProtocol = "Protocol: the 10 standard splits (Geom-GCN's split files for the paper's datasets: named `0.6_0.2`, they hold 48/32/20 % of the nodes for training/validation/test, not stratified by class; docs/datasets.md); Adam with PyTorch-style weight decay; up to 1000 epochs with patience 200 on validation accuracy (ROC AUC for the binary datasets); test metric at the best-validation epoch; mean ± population std over the splits. Nothing is tuned on test."

// protocol is the results page's sentence on the protocol its cells ran:
// the splits, the graphs given by path (own) and the training budget of
// this plan (quick mode's included).
func (p *plan) protocol(own []string) string {
	epochs, patience := p.runner.Epochs, p.runner.Patience
	def := train.DefaultOptions()
	if epochs == 0 {
		epochs = def.Epochs
	}
	if patience == 0 {
		patience = def.Patience
	}
	standard := slices.Equal(p.splits, allSplits(10))
	if standard && len(own) == 0 && epochs == def.Epochs && patience == def.Patience && !p.opt.Quick {
		return fullProtocol
	}
	var b strings.Builder
	if p.opt.Quick {
		b.WriteString("**Quick mode: a check of the pipeline, not results.** ")
	}
	b.WriteString("Protocol: ")
	if standard {
		b.WriteString("the 10 standard splits")
	} else {
		fmt.Fprintf(&b, "split%s %s of each dataset's splits", map[bool]string{true: "", false: "s"}[len(p.splits) == 1], joinInts(p.splits))
	}
	b.WriteString(" (Geom-GCN's split files for the paper's datasets: named `0.6_0.2`, they hold 48/32/20 % of the nodes for training/validation/test, not stratified by class; docs/datasets.md")
	if len(own) > 0 {
		fmt.Fprintf(&b, "; for %s, the splits in its files or, without them, random stratified splits", strings.Join(own, ", "))
		if sp := p.opt.Data.Splits; sp != nil {
			fmt.Fprintf(&b, " of %g/%g/%g %% of each class (seed %d)", 100*sp.Train, 100*sp.Val, 100*sp.Test, sp.Seed)
		}
	}
	fmt.Fprintf(&b, "); Adam with PyTorch-style weight decay; up to %d epochs with patience %d on validation accuracy (ROC AUC for the binary datasets); test metric at the best-validation epoch; mean ± population std over the splits. Nothing is tuned on test.", epochs, patience)
	return b.String()
}

// joinInts joins v with commas.
func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

// resultsPage renders docs/results.md: PCGCN against the paper, the extra
// benchmarks, the main table of every model, the speed comparison and a
// hand-written discussion (kept in docs/results-discussion.md).
func resultsPage(run pageHeader, rs []*experiments.Result, models, own []string, speed []speedPair, modelSpeed []benchSpeed, discussion string) string {
	var b strings.Builder
	dir := run.Dir
	if dir == "" {
		dir = "results"
	}
	fmt.Fprintf(&b, "# Results\n\nGenerated by `%s` on %s. Wall time: %s. Every number below is in `%s`; each cell is `%s`.%s\n\n", run.Command, run.Machine, run.WallTime,
		filepath.Join(dir, "main.json"), filepath.Join(dir, "main", "<model>__<dataset>.json"), run.staleNote())
	protocol := run.Protocol
	if protocol == "" {
		protocol = fullProtocol
	}
	fmt.Fprintln(&b, protocol+" The cells were computed over several sessions; each records the numerics of the build that computed it (README, Reproducibility), and a cell of other numerics, recomputed, can differ from the saved one by a test node or two per split (`pcgcn reproduce --refresh` recomputes them).")
	if sec := ownSection(rs, models, own); sec != "" {
		fmt.Fprintln(&b, "\n## Your graphs (--data)")
		fmt.Fprintln(&b, "\n"+sec)
	}
	fmt.Fprintln(&b, "\n## PCGCN against the paper's PCGCN row")
	fmt.Fprintln(&b, "\nPCGCN with the default reading (soft assignment, τ = 1; README \"Reading of the paper\"). The ms / epoch column is the mean training-step time during these runs, on a machine that may have been busy; the controlled speed comparison is the last section.")
	none := func(dss []string) string {
		return fmt.Sprintf("\nNo cell on %s is saved in `%s` for these splits.\n", strings.Join(dss, ", "), dir)
	}
	if hasResult(rs, []string{"pcgcn"}, paperDatasets()) {
		fmt.Fprintln(&b, "\n"+pcgcnSection(rs, paperDatasets()))
	} else {
		fmt.Fprintln(&b, none(paperDatasets()))
	}
	fmt.Fprintln(&b, "## Beyond the paper: heterophily benchmarks of Platonov et al. (2023)")
	if hasResult(rs, models, extraDatasets()) {
		fmt.Fprintln(&b, "\n"+extraSection(rs, models, extraDatasets()))
	} else {
		fmt.Fprintln(&b, none(extraDatasets()))
	}
	fmt.Fprintln(&b, "## Main table: every model on the paper's offline datasets")
	if hasResult(rs, models, paperDatasets()) {
		fmt.Fprintln(&b, "\n"+mainTable(rs, models, paperDatasets(), modelSpeed))
	} else {
		fmt.Fprintln(&b, none(paperDatasets()))
	}
	if dir := directionSection(rs); dir != "" {
		fmt.Fprintln(&b, "### The graph's direction: PCGCN on both graphs")
		fmt.Fprintln(&b, "\nThe Wikipedia links of Chameleon and Squirrel have a direction. Each model's main-table cell uses the graph its authors' code uses (docs/notes/issue24-research.md: GCNII and GGCN aggregate over out-links, the others symmetrise or publish no loader); PCGCN's code is not published, so both graphs are trained and validation chooses, as for the feature preprocessing.")
		fmt.Fprintln(&b, "\n"+dir)
	}
	if len(modelSpeed) > 0 {
		fmt.Fprintln(&b, "### Training speed of every model")
		fmt.Fprintln(&b, "\n"+benchSpeedTable(modelSpeed, models, paperDatasets()))
	}
	fmt.Fprintln(&b, "## Speed against the PyTorch CPU reference")
	if len(speed) == 0 {
		fmt.Fprint(&b, "\nNot measured yet: run `scripts/bench_vs_pytorch.sh` (writes results/speed.json), then `pcgcn reproduce` again.\n\n")
	} else {
		machines := make([]string, len(speed))
		for i, r := range speed {
			machines[i] = r.Machine
		}
		fmt.Fprintf(&b, "\nMeasured in one run%s by `scripts/bench_vs_pytorch.sh`: `pcgcn bench` and `../shared/bench/bench_epoch.py` on the same model, dataset, split and thread count (%s; forward + backward + Adam step, no evaluation).\n\n", measuredOn(machines), speedMethod(speed))
		fmt.Fprintln(&b, speedSection(speed))
	}
	if strings.TrimSpace(discussion) != "" {
		fmt.Fprintln(&b, strings.TrimSpace(discussion))
	}
	return b.String()
}

// hasResult reports whether rs holds a result of one of models on one of
// dss.
func hasResult(rs []*experiments.Result, models, dss []string) bool {
	return slices.ContainsFunc(rs, func(r *experiments.Result) bool {
		return r != nil && slices.Contains(models, r.Cell.Model) && slices.Contains(dss, r.Cell.Dataset)
	})
}

// speedPair is one dataset of the side-by-side speed comparison with the
// PyTorch reference (written by scripts/bench_vs_pytorch.sh).
type speedPair struct {
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
	// Epochs is the timed epochs of each reading; 0 in rows written
	// before it was recorded (the script's default then: 50).
	Epochs int `json:"epochs,omitempty"`
	// OursRuns and TorchRuns are the medians of each pair when the row is
	// the median of several; absent in rows of one pair.
	OursRuns  []float64 `json:"ours_runs_ms,omitempty"`
	TorchRuns []float64 `json:"torch_runs_ms,omitempty"`
	// WarmupEpochs is present when both sides warmed up over the same
	// number of epochs, at least 200 ms of ours (the script's default);
	// absent in rows warmed up over 5 epochs each.
	WarmupEpochs json.RawMessage `json:"warmup_epochs,omitempty"`
}

// speedMethod says how the rows were measured, from what they record:
// the timed epochs, the warm-up, and how many pairs each row's medians
// are the median of.
func speedMethod(rows []speedPair) string {
	epochs, pairs, warmed := -1, -1, 0
	for _, r := range rows {
		e := r.Epochs
		if e == 0 {
			e = 50
		}
		if epochs == -1 || epochs == e {
			epochs = e
		} else {
			epochs = 0
		}
		p := max(1, len(r.OursRuns))
		if pairs == -1 || pairs == p {
			pairs = p
		} else {
			pairs = 0
		}
		if len(r.WarmupEpochs) > 0 {
			warmed++
		}
	}
	s := "the median of the timed epochs"
	if epochs > 0 {
		s = fmt.Sprintf("the median of %d epochs", epochs)
	}
	const equal = "as many for the reference as for ours (at least 5, and as many as ours runs in 200 ms by default; warmup_epochs in results/speed.json)"
	switch warmed {
	case len(rows):
		s += " after warm-up epochs, " + equal
	case 0:
		s += " after 5 warm-up epochs"
	default:
		s += " after warm-up epochs: 5 in the rows without warmup_epochs in results/speed.json, in the others " + equal
	}
	switch {
	case pairs == 1:
		s += "; one pair of runs a row"
	case pairs > 1:
		s += fmt.Sprintf("; each side's time in a row is the median of %d pairs of runs measured back to back, every reading in results/speed.json", pairs)
	default:
		s += "; each side's time in a row is the median of the pairs of runs it lists in results/speed.json"
	}
	return s
}

// pcgcnSection compares PCGCN with the paper's PCGCN row.
func pcgcnSection(rs []*experiments.Result, datasets []string) string {
	var b strings.Builder
	idx := resultIndex(rs)["pcgcn"]
	pap := paper.MainTable()["pcgcn"]
	head := []string{"dataset", "ours: test acc. %", "paper", "difference", "within paper's mean ± 2 std", "ms / epoch (during the run)"}
	aligns := []report.Align{report.Left, report.Right, report.Right, report.Right, report.Center, report.Right}
	var rows [][]string
	for _, d := range datasets {
		r := idx[d]
		p, ok := pap[d]
		if r == nil {
			continue
		}
		ours := fmt.Sprintf("%.2f ± %.2f%s", r.TestMean, r.TestStd, selectionMark(r))
		if !ok {
			rows = append(rows, []string{d, ours, "—", "—", "—", fmt.Sprintf("%.2f", r.MsPerEpoch)})
			continue
		}
		diff := r.TestMean - p.Mean
		within := "yes"
		if math.Abs(diff) > 2*p.Std {
			within = "**no** (see [fidelity](fidelity.md))"
		}
		rows = append(rows, []string{d, ours, fmt.Sprintf("%.2f ± %.2f", p.Mean, p.Std), fmt.Sprintf("%+.2f", diff), within, fmt.Sprintf("%.2f", r.MsPerEpoch)})
	}
	b.WriteString(report.Table(head, aligns, rows))
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

// extraSection reports the datasets beyond the paper, with ROC AUC for the
// binary ones.
func extraSection(rs []*experiments.Result, models, dss []string) string {
	var b strings.Builder
	b.WriteString(metricTable(rs, models, dss))
	over := "the dataset's 10 splits"
	if n := splitsRun(rs, models, dss); n != 10 && n != 0 {
		over = fmt.Sprintf("the %s of the dataset's 10 splits run", n2s(n))
	}
	fmt.Fprintln(&b, "\nMean ± std over "+over+" (the masks in its npz: about 48/32/20 % of the nodes for training/validation/test on the filtered graphs, 50/25/25 on Minesweeper and Tolokers). ʳ: raw features, ⁿ: row-normalised features, whichever had the higher mean validation metric (both are trained; test plays no part); ᵈ: the directed graph (out-links), the graph of GCNII's and GGCN's authors, and PCGCN's where it wins on validation; * a candidate has not run yet. Every model uses a preset of the paper's datasets (the filtered graphs their parent's; see each model's Preset): none was tuned on these datasets, so the numbers are not comparable with the tuned ones of Platonov et al.")
	return b.String()
}

// ownSection reports graphs given by path (--data): per model and graph the
// metric the cell was selected and scored on, the test metric and the test
// accuracy, over the splits the cells ran. It is "" when none of dss has a
// result.
func ownSection(rs []*experiments.Result, models, dss []string) string {
	idx := resultIndex(rs)
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

// metricTable is the table of extraSection and ownSection: one row per
// model and dataset with a result.
func metricTable(rs []*experiments.Result, models, dss []string) string {
	idx := resultIndex(rs)
	head := []string{"model", "dataset", "metric used for selection", "test metric %", "test accuracy %", "ms / epoch"}
	var rows [][]string
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
			rows = append(rows, []string{m, d, metric, fmt.Sprintf("%.2f ± %.2f%s", r.TestMean, r.TestStd, selectionMark(r)),
				fmt.Sprintf("%.2f ± %.2f", r.TestAccMean, r.TestAccStd), fmt.Sprintf("%.2f", r.MsPerEpoch)})
		}
	}
	return report.Table(head, leftThenRight(3, len(head)), rows)
}

// benchSpeedTable renders the bench medians of every model × dataset.
func benchSpeedTable(rows []benchSpeed, models, datasets []string) string {
	var b strings.Builder
	idx := speedIndex(rows)
	threads := 0
	if len(rows) > 0 {
		threads = rows[0].Threads
	}
	var cells [][]string
	for _, m := range models {
		row := []string{m}
		for _, d := range datasets {
			if v, ok := idx[m][d]; ok {
				row = append(row, fmt.Sprintf("%.2f", v))
			} else {
				row = append(row, "—")
			}
		}
		cells = append(cells, row)
	}
	b.WriteString(report.Table(append([]string{"model"}, datasets...), leftThenRight(1, len(datasets)+1), cells))
	machines := make([]string, len(rows))
	for i, r := range rows {
		machines[i] = r.Machine
	}
	fmt.Fprintf(&b, "\nMedian ms per training epoch (forward, backward, Adam step; no evaluation), %d threads, all measured in one run of `scripts/bench_models.sh`%s.\n", threads, measuredOn(machines))
	return b.String()
}

// measuredOn names the machine a set of speed rows was measured on, as
// " on MACHINE" (or " on A, B" when they disagree), or "" when no row
// records it (rows written before the bench JSON carried it).
func measuredOn(machines []string) string {
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

// speedSection renders the side-by-side speed comparison.
func speedSection(rows []speedPair) string {
	head := []string{"dataset", "model", "threads", "pcgcn (Go) ms/epoch", "PyTorch ms/epoch", "speed-up", "pcgcn peak RSS MiB", "PyTorch peak RSS MiB"}
	aligns := []report.Align{report.Left, report.Left, report.Right, report.Right, report.Right, report.Right, report.Right, report.Right}
	var cells [][]string
	for _, r := range rows {
		cells = append(cells, []string{r.Dataset, r.Model, fmt.Sprint(r.Threads), fmt.Sprintf("%.2f", r.OursMs), fmt.Sprintf("%.2f", r.TorchMs),
			fmt.Sprintf("%.2f×", r.SpeedupRatio), fmt.Sprintf("%.0f", r.OursRSSMiB), fmt.Sprintf("%.0f", r.TorchRSSMiB)})
	}
	return report.Table(head, aligns, cells)
}
