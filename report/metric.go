package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
)

// MetricName names the metric the results on the given datasets are scored
// in, for a sentence such as "our test <MetricName>": "accuracy" when every
// one is scored by accuracy (also when there are none), "ROC AUC" when every
// one is scored by ROC AUC, else "metric (accuracy; ROC AUC on a, b)". A
// result saved before results recorded their metric counts as accuracy.
func MetricName(rs []*experiments.Result, dss []string) string {
	var auc []string
	acc := 0
	for _, r := range rs {
		if r == nil || !slices.Contains(dss, r.Cell.Dataset) {
			continue
		}
		if r.Metric == datasets.ROCAUC {
			if !slices.Contains(auc, r.Cell.Dataset) {
				auc = append(auc, r.Cell.Dataset)
			}
		} else {
			acc++
		}
	}
	switch {
	case len(auc) == 0:
		return "accuracy"
	case acc == 0:
		return "ROC AUC"
	}
	return fmt.Sprintf("metric (accuracy; ROC AUC on %s)", strings.Join(auc, ", "))
}
