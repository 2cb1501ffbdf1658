package studies

import (
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/paper"
)

// TestStatsVerdict: the statistics verdict compares only what the paper's
// table holds (issue 35, item 8: an own graph alone was said to "agree").
func TestStatsVerdict(t *testing.T) {
	pap := paper.DatasetStats()
	cora := graph.Stats{Name: "cora", Nodes: 2708, Edges: 5278, Features: 1433, Classes: 7}
	citeseer := graph.Stats{Name: "citeseer", Nodes: 3327, Edges: 4552, Features: 3703, Classes: 6}
	own := graph.Stats{Name: "/tmp/own", Nodes: 400, Edges: 1576, Features: 16, Classes: 2}
	wrongNodes := cora
	wrongNodes.Nodes = 2000
	cases := []struct {
		name  string
		stats []graph.Stats
		want  string
		not   string
	}{
		{"the paper's datasets", []graph.Stats{cora, citeseer}, "**Verdict:** node and class counts agree; 1 of 2 datasets differ from the paper in at least one count, mostly edges", "not in the paper"},
		{"an own graph alone", []graph.Stats{own}, "**Verdict:** nothing to compare: /tmp/own is not in the paper's table.", "agree"},
		{"an own graph beside", []graph.Stats{citeseer, own}, "node and class counts agree; 0 of 1 datasets differ from the paper in at least one count. /tmp/own: not in the paper's table", "mostly edges"},
		{"node counts differ", []graph.Stats{wrongNodes}, "node or class counts differ on cora; 1 of 1 datasets differ from the paper in at least one count, in edges on 1", "agree"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := statsVerdict(c.stats, pap)
			if !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
				t.Errorf("%q, want %q and no %q", got, c.want, c.not)
			}
		})
	}
}
