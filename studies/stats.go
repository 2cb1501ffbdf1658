package studies

import (
	"fmt"
	"io"
	"strings"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/paper"
	"github.com/pcgcn/pcgcn/report"
)

// statsStudy sets the datasets' statistics beside the paper's table: no
// cells, the graphs alone.
func statsStudy() study {
	return study{name: "stats", help: "dataset statistics against the paper's table",
		title: "Dataset statistics (Table \"Statistics of the datasets\")", section: renderStats}
}

func renderStats(p *plan, w io.Writer) error {
	fmt.Fprintln(w, "The paper's claim: its Table of statistics and the homophily row of its main table. Ours are measured on the same files by `pcgcn stats` (edges counted once, undirected, without self-loops or duplicates). docs/datasets.md explains each difference. The splits are Geom-GCN's 10 files per dataset (the Chameleon and Squirrel npz carry the same masks): named `0.6_0.2`, they hold 48/32/20 % of the nodes for training/validation/test, as the paper's footnote says, but are not stratified by class as its \"per class\" says (docs/datasets.md).")
	if own := ownGraphs(p.opt.Datasets); len(own) > 0 {
		fmt.Fprintf(w, "%s, given by path (--data), is measured the same way, with its own splits; the paper's table has nothing to compare it with.\n", strings.Join(own, ", "))
	}
	fmt.Fprintln(w)
	var stats []graph.Stats
	for _, d := range p.datasets(paperDatasets()) {
		g, err := p.graph(d)
		if err != nil {
			return err
		}
		stats = append(stats, graph.ComputeStats(g))
	}
	fmt.Fprintln(w, statsTable(stats))
	fmt.Fprintln(w, statsVerdict(stats, paper.DatasetStats()))
	return nil
}

// statsVerdict compares each dataset's counts with the paper's table
// (datasets it does not hold, such as a graph given by path, are named as
// such and compared with nothing).
func statsVerdict(stats []graph.Stats, pap map[string]paper.DatasetStat) string {
	var other, nodeClass []string
	compared, mismatch, edges, others := 0, 0, 0, 0
	for _, s := range stats {
		ps, ok := pap[s.Name]
		if !ok {
			other = append(other, s.Name)
			continue
		}
		compared++
		if ps.Nodes != s.Nodes || ps.Classes != s.Classes {
			nodeClass = append(nodeClass, s.Name)
		}
		if ps.Nodes != s.Nodes || ps.Edges != s.Edges || ps.Features != s.Features || ps.Classes != s.Classes {
			mismatch++
		}
		if ps.Edges != s.Edges {
			edges++
		}
		for _, differ := range []bool{ps.Nodes != s.Nodes, ps.Features != s.Features, ps.Classes != s.Classes} {
			if differ {
				others++
			}
		}
	}
	if compared == 0 {
		return fmt.Sprintf("**Verdict:** nothing to compare: %s is not in the paper's table.", orNone(other))
	}
	v := "**Verdict:** node and class counts agree"
	if len(nodeClass) > 0 {
		v = "**Verdict:** node or class counts differ on " + strings.Join(nodeClass, ", ")
	}
	v += fmt.Sprintf("; %d of %d datasets differ from the paper in at least one count", mismatch, compared)
	switch {
	case edges > others:
		v += ", mostly edges, because the paper counts raw directed lines (see docs/datasets.md)"
	case edges > 0:
		v += fmt.Sprintf(", in edges on %d (the paper counts raw directed lines; docs/datasets.md)", edges)
	}
	v += "."
	if len(other) > 0 {
		v += fmt.Sprintf(" %s: not in the paper's table, compared with nothing.", strings.Join(other, ", "))
	}
	return v
}

// statsTable renders Table "Statistics of the datasets" with our measured
// values next to the paper's (paper value in parentheses where it differs).
func statsTable(stats []graph.Stats) string {
	ps := paper.DatasetStats()
	ph := paper.EdgeHomophilyRow()
	head := []string{"dataset", "nodes", "edges (undirected, once)", "features", "classes", "edge homophily", "node homophily", "class-insensitive h"}
	aligns := []report.Align{report.Left, report.Right, report.Right, report.Right, report.Right, report.Right, report.Right, report.Right}
	num := func(ours, theirs int, ok bool) string {
		if !ok || ours == theirs {
			return fmt.Sprint(ours)
		}
		return fmt.Sprintf("%d (paper %d)", ours, theirs)
	}
	var rows [][]string
	for _, s := range stats {
		p, ok := ps[s.Name]
		h := fmt.Sprintf("%.3f", s.EdgeHomophily)
		if v, hok := ph[s.Name]; hok {
			h += fmt.Sprintf(" (paper %.2f)", v)
		}
		rows = append(rows, []string{s.Name, num(s.Nodes, p.Nodes, ok), num(s.Edges, p.Edges, ok), num(s.Features, p.Features, ok),
			num(s.Classes, p.Classes, ok), h, fmt.Sprintf("%.3f", s.NodeHomophily), fmt.Sprintf("%.3f", s.ClassInsensitiveHomophily)})
	}
	return report.Table(head, aligns, rows)
}
