package datasets

import (
	"errors"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/graph"
)

func TestResolveMetric(t *testing.T) {
	two := &graph.Graph{Name: "own", NumClasses: 2}
	three := &graph.Graph{Name: "own", NumClasses: 3}
	loads := 0
	give := func(g *graph.Graph) func() (*graph.Graph, error) {
		return func() (*graph.Graph, error) { loads++; return g, nil }
	}
	for _, tc := range []struct {
		chosen Metric
		name   string
		g      *graph.Graph
		want   Metric
		loads  int
	}{
		{"", "cora", three, Accuracy, 0},       // the registry's, nothing loaded
		{"", "/x/own", two, ROCAUC, 1},         // a path with two classes
		{"", "/x/own", three, Accuracy, 1},     // a path with more
		{Accuracy, "/x/own", two, Accuracy, 0}, // chosen, nothing to check
		{ROCAUC, "/x/own", two, ROCAUC, 1},     // chosen ROC AUC: checked
	} {
		loads = 0
		got, err := ResolveMetric(tc.chosen, tc.name, give(tc.g))
		if err != nil || got != tc.want || loads != tc.loads {
			t.Errorf("ResolveMetric(%q, %q) = %q, %v after %d loads; want %q after %d", tc.chosen, tc.name, got, err, loads, tc.want, tc.loads)
		}
	}
	if _, err := ResolveMetric(ROCAUC, "/x/own", give(three)); err == nil || !strings.Contains(err.Error(), "own has 3 classes; ROC AUC needs two") {
		t.Errorf("ROC AUC on three classes: %v", err)
	}
	boom := errors.New("boom")
	if _, err := ResolveMetric("", "/x/own", func() (*graph.Graph, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Errorf("load error: %v", err)
	}
	if m, err := ResolveMetric("", "/x/own", nil); err != nil || m != Accuracy {
		t.Errorf("no graph: %q, %v", m, err)
	}
}
