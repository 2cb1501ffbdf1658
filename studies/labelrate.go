package studies

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/report"
	"github.com/pcgcn/pcgcn/train"
)

// labelRateStudy is fig:label: accuracy with 70 down to 2 training labels
// per class, on random splits.
func labelRateStudy() study {
	return study{name: "labelrate", help: "70 down to 2 training labels per class, random splits",
		title: "Few labels (fig:label)", cells: labelRateCells, section: renderLabelRate,
		prepare: labelRatePrepare}
}

// paperLabelRateSizes is the grid of training labels per class of fig:label.
func paperLabelRateSizes() []int { return []int{70, 50, 30, 20, 10, 5, 2} }

// labelRateModelCells train each model with few labels per class on random
// splits.
func labelRateModelCells(models, datasets []string, sizes, splits []int) []experiments.Cell {
	var cells []experiments.Cell
	for _, d := range datasets {
		for _, k := range sizes {
			for _, m := range models {
				cells = append(cells, experiments.Cell{Study: "labelrate", Dataset: d, Model: m, Splits: splits}.WithOpt(optLabelsPerClass, k))
			}
		}
	}
	return cells
}

func labelRateModels() []string { return []string{"pcgcn", "gcn", "gat", "mlp"} }
func labelRateDatasets(p *plan) []string {
	return p.datasets([]string{"cora", "citeseer", "chameleon", "squirrel", "actor"})
}
func (p *plan) labelRateSizes() []int {
	if p.opt.Quick {
		return quickLabelRateSizes()
	}
	return paperLabelRateSizes()
}

func labelRateCells(p *plan) []experiments.Cell {
	return labelRateModelCells(labelRateModels(), labelRateDatasets(p), p.labelRateSizes(), p.splits)
}

func renderLabelRate(p *plan, w io.Writer) error {
	fmt.Fprintf(w, "The paper's claim: with 70 down to 2 training labels per class, PCGCN is the best model at every size, by a large margin on the heterophilous graphs. Protocol (the paper gives none): for each size, %d random splits with that many training nodes per class (all but one node of a smaller class), %d random validation nodes (at most half of the rest) and every other node for test; the same splits for every model.\n\n", len(p.splits), labelRateVal)
	sizes := p.labelRateSizes()
	wins, n := 0, 0
	for _, d := range labelRateDatasets(p) {
		rs := p.results(labelRateModelCells(labelRateModels(), []string{d}, sizes, p.splits))
		if len(rs) == 0 {
			pendingOn(w, d, "labelrate")
			continue
		}
		series := labelRateSeries(rs, sizes)
		path, link := p.figure("labelrate_" + d + ".png")
		if err := labelRatePlot(path, d+": accuracy vs training labels per class", sizes, series); err != nil {
			return err
		}
		fmt.Fprintf(w, "### %s\n\n![%s](%s)\n\n| model |", d, d, link)
		for _, k := range sizes {
			fmt.Fprintf(w, " %d |", k)
		}
		fmt.Fprintf(w, "\n| --- |%s\n", repeat(" ---: |", len(sizes)))
		for _, m := range labelRateModels() {
			fmt.Fprintf(w, "| %s |", m)
			for i := range sizes {
				v := meanStd{Mean: math.NaN()}
				if series[m] != nil {
					v = series[m][i]
				}
				fmt.Fprintf(w, " %s |", ms(v))
			}
			fmt.Fprintln(w)
		}
		margins := labelRateMargins(series, len(sizes))
		fmt.Fprintf(w, "| pcgcn − best other |")
		for _, v := range margins {
			if math.IsNaN(v) {
				fmt.Fprintf(w, " — |")
			} else {
				fmt.Fprintf(w, " %+.2f |", v)
			}
		}
		fmt.Fprintf(w, "\n\n%s\n\n", labelRateMarginNote(d, margins))
		for _, v := range margins {
			if !math.IsNaN(v) {
				n++
				if v > 0 {
					wins++
				}
			}
		}
	}
	fmt.Fprintln(w, labelRateVerdict(wins, n, len(labelRateDatasets(p))*len(sizes)))
	return nil
}

// labelRateMargins returns, per size, PCGCN's test mean minus the best
// other model's, NaN where some model has not run that size yet (a point
// counts only once every model has run it).
func labelRateMargins(series map[string][]meanStd, sizes int) []float64 {
	out := make([]float64, sizes)
	for i := range out {
		if series["pcgcn"] == nil {
			out[i] = math.NaN()
			continue
		}
		best := math.Inf(-1)
		for _, m := range labelRateModels() {
			s := series[m]
			if s == nil || math.IsNaN(s[i].Mean) {
				best = math.NaN()
				break
			}
			if m != "pcgcn" {
				best = math.Max(best, s[i].Mean)
			}
		}
		out[i] = series["pcgcn"][i].Mean - best // NaN when incomplete
	}
	return out
}

// labelRateMarginNote says in one sentence how PCGCN fares against the best
// other model on dataset d over the sizes that every model has run: at how
// many it is ahead, and the range and mean of the margin in points, which is
// what the paper's "large margin" claim is about.
func labelRateMarginNote(d string, margins []float64) string {
	ahead, n := 0, 0
	lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
	for _, v := range margins {
		if math.IsNaN(v) {
			continue
		}
		n++
		if v > 0 {
			ahead++
		}
		lo, hi, sum = math.Min(lo, v), math.Max(hi, v), sum+v
	}
	if n == 0 {
		return fmt.Sprintf("On %s no size has every model yet.", d)
	}
	return fmt.Sprintf("On %s PCGCN is ahead of the best other model at %d of the %d sizes every model has run; its margin ranges from %+.2f to %+.2f points (mean %+.2f).",
		d, ahead, n, lo, hi, sum/float64(n))
}

// labelRateVerdict judges the claim (PCGCN best at every size) from the
// points where every model has run: PCGCN wins wins of the n complete
// points, of the total the study has.
func labelRateVerdict(wins, n, total int) string {
	switch {
	case n == 0:
		return "**Verdict:** not yet: no (dataset, labels-per-class) point has all its models; `pcgcn reproduce --only labelrate` resumes."
	case n < total:
		return fmt.Sprintf("**Verdict so far:** PCGCN is the most accurate model at %d of the %d points where every model has run (%d of the %d points are complete).", wins, n, n, total)
	}
	if wins == n { // the margin, the claim's other half, is each dataset's note above
		return fmt.Sprintf("**Verdict:** PCGCN is the most accurate model at %d of %d (dataset, labels-per-class) points: the claim that it is the best at every size holds here; how large its margin is, each dataset's line above says.", wins, n)
	}
	return fmt.Sprintf("**Verdict:** PCGCN is the most accurate model at %d of %d (dataset, labels-per-class) points: the claim does not hold here.", wins, n)
}

// meanStd is a mean and standard deviation (of test accuracy over splits, in
// percent).
type meanStd struct {
	Mean, Std float64
}

// labelRateSeries arranges the label-rate study's results as one series per
// model: series[model][i] is the test mean ± std of the cell with
// sizes[i] labels per class (the cell's labels_per_class setting), NaN when
// that cell is missing. Results without that setting are ignored.
func labelRateSeries(rs []*experiments.Result, sizes []int) map[string][]meanStd {
	pos := map[int]int{}
	for i, k := range sizes {
		pos[k] = i
	}
	series := map[string][]meanStd{}
	for _, r := range rs {
		if r == nil || labelsPerClass(r.Cell) <= 0 {
			continue
		}
		i, ok := pos[labelsPerClass(r.Cell)]
		if !ok {
			continue
		}
		s := series[r.Cell.Model]
		if s == nil {
			s = make([]meanStd, len(sizes))
			for j := range s {
				s[j] = meanStd{math.NaN(), math.NaN()}
			}
			series[r.Cell.Model] = s
		}
		s[i] = meanStd{r.TestMean, r.TestStd}
	}
	return series
}

// labelRatePlot draws fig:label for one dataset: test accuracy against the
// number of training labels per class, one line per model with error bars
// of ± one standard deviation over the random splits. The x axis is
// logarithmic with a tick at each size; the points of different models are
// shifted a little sideways so that their error bars do not overlap. PCGCN
// is red, bold and drawn on top, as in the paper. series[model][i] belongs
// to sizes[i]; a NaN mean leaves the point out.
func labelRatePlot(path, title string, sizes []int, series map[string][]meanStd) error {
	if len(sizes) == 0 {
		return fmt.Errorf("labelRatePlot: no sizes")
	}
	for _, k := range sizes {
		if k <= 0 {
			return fmt.Errorf("labelRatePlot: %d labels per class", k)
		}
	}
	if len(series) == 0 {
		return fmt.Errorf("labelRatePlot: no series")
	}
	// Baselines sorted by name, PCGCN last (drawn on top).
	models := make([]string, 0, len(series))
	for m, s := range series {
		if len(s) != len(sizes) {
			return fmt.Errorf("labelRatePlot: %s has %d points for %d sizes", m, len(s), len(sizes))
		}
		models = append(models, m)
	}
	isPCGCN := func(m string) bool { return strings.HasPrefix(strings.ToLower(m), "pcgcn") }
	sort.Slice(models, func(i, j int) bool {
		if isPCGCN(models[i]) != isPCGCN(models[j]) {
			return !isPCGCN(models[i])
		}
		return models[i] < models[j]
	})
	f := report.LineFigure{Title: title, XLabel: "training labels per class (log scale)", YLabel: "test accuracy (%, mean ± std over splits)", LogX: true}
	lo, hi := sizes[0], sizes[0]
	for _, k := range sizes {
		lo, hi = min(lo, k), max(hi, k)
		f.XTicks = append(f.XTicks, report.Tick{Value: float64(k), Label: fmt.Sprint(k)})
	}
	f.XMin, f.XMax = float64(lo)/1.25, float64(hi)*1.25
	// order lists the sizes from the smallest up, so lines run left to right
	// and break where a model has no point.
	order := make([]int, len(sizes))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return sizes[order[a]] < sizes[order[b]] })
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	yLo, yHi := math.Inf(1), math.Inf(-1)
	for m, name := range models {
		// Spread the models over ±4% of a factor around each size.
		shift := math.Pow(1.04, float64(m)-float64(len(models)-1)/2)
		s := report.LineSeries{Label: name, Model: name, Bold: isPCGCN(name)}
		for _, i := range order {
			v := series[name][i]
			sd := v.Std
			if !finite(sd) || sd < 0 {
				sd = 0
			}
			if finite(v.Mean) {
				yLo, yHi = min(yLo, v.Mean-sd), max(yHi, v.Mean+sd)
			}
			s.X = append(s.X, float64(sizes[i])*shift)
			s.Y = append(s.Y, v.Mean)
			s.Err = append(s.Err, sd)
		}
		f.Series = append(f.Series, s)
	}
	if math.IsInf(yLo, 1) {
		return fmt.Errorf("labelRatePlot: every point is NaN")
	}
	f.YMin = math.Max(0, 10*math.Floor(yLo/10-0.2))
	f.YMax = math.Min(100, 10*math.Ceil(yHi/10+0.2))
	return report.LinePlot(path, f)
}

// optLabelsPerClass is the label-rate cells' setting: the standard splits
// are replaced by random ones with this many training labels per class (see
// labelRateVal).
const optLabelsPerClass = "labels_per_class"

// labelRateVal is the number of validation nodes drawn at random for the
// label-rate study's splits; every other node not used for training is a
// test node.
const labelRateVal = 500

// labelsPerClass returns c's training labels per class on random splits,
// or 0 for the standard splits.
func labelsPerClass(c experiments.Cell) int {
	var k int
	c.Opt(optLabelsPerClass, &k)
	return k
}

// labelRatePrepare gives a label-rate cell its random splits, drawn from the
// runner's seed.
func labelRatePrepare(p *plan, c experiments.Cell, g *graph.Graph, _ *train.Options) (*graph.Graph, error) {
	if k := labelsPerClass(c); k > 0 {
		return withRandomSplits(g, k, c.Splits, p.runner.Seed)
	}
	return g, nil
}

// withRandomSplits returns a shallow copy of g whose splits are random
// label-rate splits (index k drawn with a seed derived from seed, perClass, k).
func withRandomSplits(g *graph.Graph, perClass int, splits []int, seed uint64) (*graph.Graph, error) {
	n := 0
	for _, k := range splits {
		n = max(n, k+1)
	}
	cp := g.ShallowCopy()
	cp.Splits = make([]graph.Split, n)
	for k := 0; k < n; k++ {
		sp, err := graph.RandomSplit(g, perClass, labelRateVal, train.SplitSeed(seed+uint64(perClass)*7919, k))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", g.Name, err)
		}
		cp.Splits[k] = sp
	}
	return cp, nil
}
