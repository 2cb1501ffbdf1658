package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// TestTrainSaysWhichGraph: train on a *-directed dataset aggregates over
// the directed links by default (issue 35: PCGCN trained on the
// symmetrised graph), and the text and --json outputs say which graph was
// used; --set directed=false gives the symmetrised one, said as such.
func TestTrainSaysWhichGraph(t *testing.T) {
	mirror := datatest.Mirror(t)
	run := func(extra ...string) string {
		t.Helper()
		args := append([]string{"train", "--dataset", "chameleon-directed", "--splits", "0", "--epochs", "2", "--threads", "1",
			"--quiet", "--data-dir", mirror}, extra...)
		out, _, err := pcgcn(args...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, tc := range []struct {
		model, set, aggregation string
		links                   bool
		text                    string
	}{
		{"pcgcn", "", "out-links", true, "graph: directed, 36051 links (out-links, directed=true"},
		{"gcn", "", "out-links", true, "graph: directed, 36051 links"},
		{"pcgcn", "directed=false", "symmetrised", false, "graph: symmetrised, 31371 undirected pairs (directed=false"},
		{"mlp", "", "symmetrised", false, "graph: symmetrised, 31371 undirected pairs\n"},
	} {
		t.Run(tc.model+tc.set, func(t *testing.T) {
			extra := []string{"--model", tc.model}
			if tc.set != "" {
				extra = append(extra, "--set", tc.set)
			}
			var rep struct {
				Graph graphSummary `json:"graph"`
			}
			js := run(append(extra, "--json")...)
			if err := json.Unmarshal([]byte(js), &rep); err != nil {
				t.Fatalf("%v\n%s", err, js)
			}
			if rep.Graph.Aggregation != tc.aggregation || (rep.Graph.DirectedLinks > 0) != tc.links {
				t.Errorf("graph %+v, want aggregation %s", rep.Graph, tc.aggregation)
			}
			if text := run(extra...); !strings.Contains(text, tc.text) {
				t.Errorf("text output lacks %q:\n%s", tc.text, text)
			}
		})
	}
}
