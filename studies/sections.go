package studies

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/paper"
	"github.com/pcgcn/pcgcn/report"
)

func allStudies() []study {
	return []study{
		{name: "stats", title: "Dataset statistics (Table \"Statistics of the datasets\")", render: renderStats},
		{name: "main", title: "Main table (Table \"Mean accuracy±stdev\")", cells: mainCells, render: renderMain},
		{name: "hete", title: "Accuracy by node homophily (fig:hete)", cells: heteCells, render: renderHete},
		{name: "tsne", title: "t-SNE of last-layer embeddings (fig:tsne1, fig:tsne2)", cells: tsneCells, render: renderTSNE},
		{name: "sld", title: "Accuracy by shortest label distance (fig:SLD)", cells: sldCells, render: renderSLD},
		{name: "labelrate", title: "Few labels (fig:label)", cells: labelRateCells, render: renderLabelRate},
		{name: "missing", title: "Missing classes (tb:missclass-1, tb:missclass-2)", cells: missingCells, render: renderMissing},
		{name: "ablation", title: "Ablation (Table \"Ablation study\")", cells: ablationCells, render: renderAblation},
		{name: "partial", title: "Full vs partial control (Table \"full control vs partial control\")", cells: partialCells, render: renderPartial},
		{name: "matching", title: "Matching degree and accuracy (fig:corr)", cells: matchingCells, render: renderMatching},
	}
}

func pending(w io.Writer, what string) {
	fmt.Fprintf(w, "_Not run yet: `pcgcn reproduce --only %s`._\n\n", what)
}

// ---- 1. statistics ---------------------------------------------------------

func renderStats(p *plan, w io.Writer) error {
	fmt.Fprintln(w, "The paper's claim: its Table of statistics and the homophily row of its main table. Ours are measured on the same files by `pcgcn stats` (edges counted once, undirected, without self-loops or duplicates). docs/datasets.md explains each difference. The splits are Geom-GCN's 10 files per dataset (the Chameleon and Squirrel npz carry the same masks): named `0.6_0.2`, they hold 48/32/20 % of the nodes for training/validation/test, as the paper's footnote says, but are not stratified by class as its \"per class\" says (docs/datasets.md).")
	fmt.Fprintln(w)
	var stats []graph.Stats
	mismatch := 0
	for _, d := range p.datasets(experiments.PaperDatasets()) {
		g, err := p.graph(d)
		if err != nil {
			return err
		}
		s := graph.ComputeStats(g)
		stats = append(stats, s)
		if ps, ok := paper.DatasetStats()[d]; ok && (ps.Nodes != s.Nodes || ps.Edges != s.Edges || ps.Features != s.Features || ps.Classes != s.Classes) {
			mismatch++
		}
	}
	fmt.Fprintln(w, report.StatsTable(stats))
	fmt.Fprintf(w, "**Verdict:** node and class counts agree; %d of %d datasets differ from the paper in at least one count, mostly edges, because the paper counts raw directed lines (see docs/datasets.md).\n", mismatch, len(stats))
	return nil
}

// ---- 2. main table -----------------------------------------------------------

func mainDatasets(p *plan) []string { return p.datasets(experiments.PaperDatasets()) }

// mainModels are the main table's models.
func (p *plan) mainModels() []string {
	switch {
	case len(p.opt.Models) > 0:
		return p.opt.Models
	case p.opt.Quick:
		return []string{"pcgcn", "gcn", "gat", "mlp", "linkx"}
	}
	return models.NewRegistry().Names()
}

func mainCells(p *plan) []experiments.Cell {
	return experiments.MainCells(p.mainModels(), mainDatasets(p), p.splits)
}

func renderMain(p *plan, w io.Writer) error {
	names := p.mainModels()
	rs := p.results(experiments.MainCells(names, mainDatasets(p), p.splits))
	if len(rs) == 0 {
		pending(w, "main")
		return nil
	}
	fmt.Fprintln(w, "The paper's claim: PCGCN has the best average rank (2.0) and is best on the heterophilous graphs. Each cell: ours (the paper's).")
	fmt.Fprintln(w)
	speed, err := report.ReadModelSpeed(filepath.Join(p.opt.ResultsDir, "speed_models.json"))
	if err != nil {
		return err
	}
	fmt.Fprintln(w, report.MainTable(rs, names, mainDatasets(p), speed))
	best, total := 0, 0
	for _, d := range mainDatasets(p) {
		var top string
		topv := math.Inf(-1)
		have := 0
		for _, r := range rs {
			if r.Cell.Dataset != d {
				continue
			}
			have++
			if r.TestMean > topv {
				top, topv = r.Cell.Model, r.TestMean
			}
		}
		if have < len(names) { // only datasets where every model has a result
			continue
		}
		total++
		if top == "pcgcn" {
			best++
		}
	}
	if total == 0 {
		fmt.Fprintln(w, "**Verdict:** not yet: no dataset has a result for every model.")
		return nil
	}
	fmt.Fprintf(w, "**Verdict:** PCGCN has the best mean test accuracy on %d of the %d datasets where every model has a result (the paper: on 7 of its 10).\n", best, total)
	return nil
}

// ---- 3. homophily buckets ------------------------------------------------------

func heteModels() []string { return []string{"pcgcn", "gcn", "gat"} }

func heteCells(p *plan) []experiments.Cell {
	return experiments.MainCells(heteModels(), p.datasets(experiments.HeterophilousDatasets()), p.splits)
}

func renderHete(p *plan, w io.Writer) error {
	fmt.Fprintf(w, "The paper's claim: PCGCN beats GCN and GAT on strongly heterophilous nodes (node homophily < 0.4) and is only comparable on homophilous ones (> 0.6). Test nodes of the %d splits are pooled and grouped in bins of 0.2; the dotted line is the share of test nodes per bin. The paper gives this figure without numbers.\n", len(p.splits))
	fmt.Fprintln(w)
	wins, n := 0, 0
	high := map[string][]float64{}
	var highDs []string
	for _, d := range p.datasets(experiments.HeterophilousDatasets()) {
		rs := p.results(experiments.MainCells(heteModels(), []string{d}, p.splits))
		if len(rs) < len(heteModels()) {
			fmt.Fprintf(w, "%s: ", d)
			pending(w, "hete")
			continue
		}
		g, err := p.graph(d)
		if err != nil {
			return err
		}
		bins, iso, err := report.BucketAccuracy(rs, graph.NodeHomophily(g), 0.2)
		if err != nil {
			return err
		}
		names := make([]string, len(rs))
		for i, r := range rs {
			names[i] = r.Cell.Model
		}
		path, link := p.figure("hete_" + d + ".png")
		if err := report.HomophilyPlot(path, fmt.Sprintf("%s: accuracy by node homophily (%d splits)", d, len(p.splits)), bins, names); err != nil {
			return err
		}
		fmt.Fprintf(w, "### %s\n\n![%s](%s)\n\n%s", d, d, link, report.BucketTable(bins, names))
		if iso > 0 {
			fmt.Fprintf(w, "\n(%d isolated test-node occurrences left out.)\n", iso)
		}
		fmt.Fprintln(w)
		if low, _, ok := pooled(bins, 0, 0.4); ok {
			n++
			if low[0] > low[1] && low[0] > low[2] {
				wins++
			}
		}
		if acc, nodes, ok := pooled(bins, 0.6, 1.01); ok && nodes >= heteMinNodes {
			high[d] = acc
			highDs = append(highDs, d)
		}
	}
	if n > 0 {
		fmt.Fprintf(w, "**Verdict:** on nodes with homophily below 0.4, PCGCN is more accurate than both GCN and GAT on %d of %d datasets. %s\n", wins, n, homophilousNote(high, highDs))
	}
	return nil
}

// pooled returns each model's accuracy over the bins with lo ≤ Lo < hi
// pooled, and the number of test-node occurrences they hold; ok is false
// when some model has no node there.
func pooled(bins []report.Bin, lo, hi float64) (acc []float64, nodes int, ok bool) {
	var sel []report.Bin
	for _, b := range bins {
		if b.Lo >= lo-1e-9 && b.Lo < hi-1e-9 {
			sel = append(sel, b)
			nodes += b.Nodes
		}
	}
	if len(sel) == 0 || len(sel[0].Acc) == 0 {
		return nil, 0, false
	}
	acc = make([]float64, len(sel[0].Acc))
	for j := range acc {
		var hit, cnt float64
		for _, b := range sel {
			if b.Count[j] > 0 {
				hit += b.Acc[j] * float64(b.Count[j]) / 100
				cnt += float64(b.Count[j])
			}
		}
		if cnt == 0 {
			return nil, 0, false
		}
		acc[j] = 100 * hit / cnt
	}
	return acc, nodes, true
}

// heteComparable is how many points from the better baseline the
// homophilous-node verdict still calls PCGCN comparable, and heteMinNodes
// the pooled test nodes a dataset needs there to be judged (Texas has 8).
const (
	heteComparable = 2.0
	heteMinNodes   = 30
)

// homophilousNote judges the claim's second half from each dataset's
// pooled accuracy on nodes with homophily ≥ 0.6 (PCGCN first, then the
// baselines): PCGCN within heteComparable points of the best baseline, or
// below or above it by more.
func homophilousNote(high map[string][]float64, datasets []string) string {
	var within, below, above []string
	n := 0
	for _, d := range datasets {
		acc, ok := high[d]
		if !ok {
			continue
		}
		n++
		best := math.Inf(-1)
		for _, a := range acc[1:] {
			best = math.Max(best, a)
		}
		diff := acc[0] - best
		s := fmt.Sprintf("%s %+.1f", d, diff)
		switch {
		case diff < -heteComparable:
			below = append(below, s)
		case diff > heteComparable:
			above = append(above, s)
		default:
			within = append(within, s)
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("On nodes with homophily of 0.6 or more (datasets with at least %d such test nodes pooled), PCGCN minus the better of GCN and GAT is within %.0f points on %s; below on %s; above on %s.",
		heteMinNodes, heteComparable, orNone(within), orNone(below), orNone(above))
}

// ---- 5. shortest label distance ---------------------------------------------------

func sldCells(p *plan) []experiments.Cell {
	return experiments.MainCells([]string{"pcgcn", "gcn"}, mainDatasets(p), p.splits)
}

func renderSLD(p *plan, w io.Writer) error {
	fmt.Fprintln(w, "The paper's claim: on homophilous graphs PCGCN helps most on test nodes far (large SLD) from the training nodes of their class; on heterophilous graphs it helps most at SLD 1–2. SLD is computed by one breadth-first search per class from that class's training nodes.")
	fmt.Fprintln(w)
	homophilous, err := p.homophilous(mainDatasets(p))
	if err != nil {
		return err
	}
	agree, n := 0, 0
	for _, d := range mainDatasets(p) {
		rs := p.results(experiments.MainCells([]string{"pcgcn", "gcn"}, []string{d}, p.splits))
		if len(rs) < 2 {
			fmt.Fprintf(w, "%s: ", d)
			pending(w, "sld")
			continue
		}
		g, err := p.graph(d)
		if err != nil {
			return err
		}
		sld := func(k int) []int32 { return graph.ShortestLabelDistance(g, g.Splits[k].Train) }
		buckets, err := report.AccuracyByDistance(rs, sld, 4)
		if err != nil {
			return err
		}
		names := []string{rs[0].Cell.Model, rs[1].Cell.Model}
		path, link := p.figure("sld_" + d + ".png")
		if err := report.DistancePlot(path, d+": accuracy by shortest label distance", buckets, names); err != nil {
			return err
		}
		fmt.Fprintf(w, "### %s\n\n![%s](%s)\n\n%s\n", d, d, link, report.DistanceTable(buckets, names))
		var better []string
		for _, b := range buckets {
			if len(b.Acc) == 2 && !math.IsNaN(b.Acc[0]) && !math.IsNaN(b.Acc[1]) && b.Acc[0] > b.Acc[1] {
				better = append(better, b.Label)
			}
		}
		fmt.Fprintf(w, "PCGCN is more accurate than GCN at SLD %s.", orNone(better))
		if b, gain, ok := largestGain(buckets); ok {
			fmt.Fprintf(w, " Its largest gain over GCN is at SLD %s (%+.1f points, %d test nodes pooled over the splits).", b.Label, gain, b.Nodes)
			n++
			near := b.Min >= 1 && b.Min <= 2
			if near == !homophilous[d] {
				agree++
			}
		}
		fmt.Fprint(w, "\n\n")
	}
	if n > 0 {
		fmt.Fprintf(w, "**Verdict:** PCGCN's largest gain over GCN falls where the paper says (SLD 1–2 on heterophilous graphs, SLD ≥ 3 on homophilous ones) on %d of %d datasets.\n", agree, n)
	}
	return nil
}

// sldMinNodes is the number of pooled test nodes an SLD bucket needs for
// largestGain to consider it: smaller ones (on the WebKB graphs, a handful
// of nodes) swing by tens of points with one prediction.
const sldMinNodes = 30

// largestGain returns the reachable SLD bucket (SLD ≥ 1) with at least
// sldMinNodes test nodes where PCGCN (model 0) beats GCN (model 1) by the
// most, and that margin in points; ok is false when no bucket qualifies.
func largestGain(buckets []report.DistanceBucket) (best report.DistanceBucket, gain float64, ok bool) {
	gain = math.Inf(-1)
	for _, b := range buckets {
		if b.Min < 1 || b.Nodes < sldMinNodes || len(b.Acc) != 2 || math.IsNaN(b.Acc[0]) || math.IsNaN(b.Acc[1]) {
			continue
		}
		if g := b.Acc[0] - b.Acc[1]; g > gain {
			best, gain, ok = b, g, true
		}
	}
	return best, gain, ok
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}
