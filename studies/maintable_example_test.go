package studies

import (
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/train"
)

// mainTable renders saved results (here made by hand) as a Markdown table:
// each cell is our test mean ± std with the paper's mean in parentheses,
// followed by the average rank of the models, ours and the paper's, and the
// time per epoch. ⚠ marks a mean more than two standard deviations from the
// paper's. A legend paragraph follows the table.
func TestMainTableByHand(t *testing.T) {
	result := func(model, dataset string, mean, std, msPerEpoch float64) *experiments.Result {
		return &experiments.Result{
			Cell:   experiments.Cell{Study: "main", Model: model, Dataset: dataset},
			Metric: datasets.Accuracy,
			Scores: train.Scores{TestMean: mean, TestStd: std, MsPerEpoch: msPerEpoch},
		}
	}
	results := []*experiments.Result{
		result("pcgcn", "cora", 88.1, 1.2, 12),
		result("pcgcn", "texas", 86.5, 4.0, 4),
		result("gcn", "cora", 86.9, 1.3, 3),
		result("gcn", "texas", 70.3, 4.1, 1),
	}
	table := mainTable(results, []string{"pcgcn", "gcn"}, []string{"cora", "texas"}, nil)
	table, _, _ = strings.Cut(table, "\n\n") // the table without its legend
	want := `| model | cora | texas | avg. rank (ours) | avg. rank (paper) | ms / epoch (mean over datasets) |
| --- | ---: | ---: | ---: | ---: | ---: |
| pcgcn | 88.10 ± 1.20 (87.65) | 86.50 ± 4.00 (85.95) | 1.0 | 2.0 | 8.00 (run) |
| gcn | 86.90 ± 1.30 (86.98) | 70.30 ± 4.10 (55.14) ⚠ | 2.0 | 10.9 | 2.00 (run) |`
	if strings.TrimSpace(table) != want {
		t.Errorf("main table:\n%s\nwant:\n%s", table, want)
	}
}
