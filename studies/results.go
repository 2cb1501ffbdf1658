package studies

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/models"
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
	var speed []report.SpeedRow
	speedPath := filepath.Join(p.opt.ResultsDir, "speed.json")
	if sb, err := os.ReadFile(speedPath); err == nil {
		if err := json.Unmarshal(sb, &speed); err != nil {
			return fmt.Errorf("%s: %w", speedPath, err)
		}
	}
	modelSpeed, err := report.ReadModelSpeed(filepath.Join(p.opt.ResultsDir, "speed_models.json"))
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
func resultsPage(run pageHeader, rs []*experiments.Result, models, own []string, speed []report.SpeedRow, modelSpeed []report.ModelSpeed, discussion string) string {
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
	if sec := report.OwnSection(rs, models, own); sec != "" {
		fmt.Fprintln(&b, "\n## Your graphs (--data)")
		fmt.Fprintln(&b, "\n"+sec)
	}
	fmt.Fprintln(&b, "\n## PCGCN against the paper's PCGCN row")
	fmt.Fprintln(&b, "\nPCGCN with the default reading (soft assignment, τ = 1; README \"Reading of the paper\"). The ms / epoch column is the mean training-step time during these runs, on a machine that may have been busy; the controlled speed comparison is the last section.")
	none := func(dss []string) string {
		return fmt.Sprintf("\nNo cell on %s is saved in `%s` for these splits.\n", strings.Join(dss, ", "), dir)
	}
	if hasResult(rs, []string{"pcgcn"}, paperDatasets()) {
		fmt.Fprintln(&b, "\n"+report.PCGCNSection(rs, paperDatasets()))
	} else {
		fmt.Fprintln(&b, none(paperDatasets()))
	}
	fmt.Fprintln(&b, "## Beyond the paper: heterophily benchmarks of Platonov et al. (2023)")
	if hasResult(rs, models, extraDatasets()) {
		fmt.Fprintln(&b, "\n"+report.ExtraSection(rs, models, extraDatasets()))
	} else {
		fmt.Fprintln(&b, none(extraDatasets()))
	}
	fmt.Fprintln(&b, "## Main table: every model on the paper's offline datasets")
	if hasResult(rs, models, paperDatasets()) {
		fmt.Fprintln(&b, "\n"+report.MainTable(rs, models, paperDatasets(), modelSpeed))
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
		fmt.Fprintln(&b, "\n"+report.ModelSpeedTable(modelSpeed, models, paperDatasets()))
	}
	fmt.Fprintln(&b, "## Speed against the PyTorch CPU reference")
	if len(speed) == 0 {
		fmt.Fprint(&b, "\nNot measured yet: run `scripts/bench_vs_pytorch.sh` (writes results/speed.json), then `pcgcn reproduce` again.\n\n")
	} else {
		machines := make([]string, len(speed))
		for i, r := range speed {
			machines[i] = r.Machine
		}
		fmt.Fprintf(&b, "\nMeasured in one run%s by `scripts/bench_vs_pytorch.sh`: `pcgcn bench` and `../shared/bench/bench_epoch.py` on the same model, dataset, split and thread count (median of 50 epochs after 5 warm-up epochs; forward + backward + Adam step, no evaluation).\n\n", report.MeasuredOn(machines))
		fmt.Fprintln(&b, report.SpeedSection(speed))
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
