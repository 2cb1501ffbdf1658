package experiments

import (
	"fmt"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/testkit"
)

// writeBinaryGraph writes a 60-node two-class user graph without splits.csv.
func writeBinaryGraph(t *testing.T) string {
	t.Helper()
	return testkit.Dir(t, "own", testkit.Ring{N: 60, Hops: []int{2, 7}, Label: func(i int) int { return i % 2 },
		Feature: func(i int) string { return fmt.Sprintf("%d,%g", i%2, float64(i%5)/5) }}.Files())
}

// TestRunnerOnUserGraphWithoutSplits checks that the Runner draws the
// random splits of its data options for a graph without splits, scores a
// two-class own graph on ROC AUC by default, and does not reuse the cell
// when the metric is then chosen otherwise.
func TestRunnerOnUserGraphWithoutSplits(t *testing.T) {
	dir := writeBinaryGraph(t)
	spec := graph.DefaultSplitSpec(42)
	spec.Num = 2
	rn := &Runner{Dir: t.TempDir(), Data: datasets.Options{Splits: &spec}, Threads: 1, Epochs: 3, Patience: 3}
	c := Cell{Study: "s", Dataset: dir, Model: "mlp", Splits: []int{0, 1}}
	tests := []struct {
		name    string
		metrics map[string]datasets.Metric
		want    datasets.Metric
	}{
		{"default for two classes", nil, datasets.ROCAUC},
		{"chosen accuracy", map[string]datasets.Metric{dir: datasets.Accuracy}, datasets.Accuracy},
		{"chosen roc auc", map[string]datasets.Metric{dir: datasets.ROCAUC}, datasets.ROCAUC},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rn.Metrics = tc.metrics
			if saved := rn.LoadExact(c); saved != nil && saved.Metric != tc.want {
				t.Fatalf("a cell saved with metric %s is reused for %s", saved.Metric, tc.want)
			}
			rs, err := rn.Run([]Cell{c})
			if err != nil {
				t.Fatal(err)
			}
			if rs[0].Metric != tc.want || len(rs[0].PerSplit) != 2 {
				t.Errorf("metric %s over %d splits, want %s over 2", rs[0].Metric, len(rs[0].PerSplit), tc.want)
			}
		})
	}
}
