package studies

import (
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
)

// The main table's caption names the metric its cells hold: on a two-class
// graph scored by ROC AUC it must not call them accuracy (issue 35, item 5).
func TestMainTableCaptionNamesTheMetric(t *testing.T) {
	auc := func(model, ds string) *experiments.Result {
		r := res(model, ds, 90, 1)
		r.Metric = datasets.ROCAUC
		return r
	}
	cases := []struct {
		name string
		rs   []*experiments.Result
		dss  []string
		want string
		not  string
	}{
		{"accuracy", []*experiments.Result{res("a", "x", 80, 1)}, []string{"x"}, "Each cell: our test accuracy,", "ROC AUC"},
		{"ROC AUC", []*experiments.Result{auc("a", "g")}, []string{"g"}, "Each cell: our test ROC AUC,", "test accuracy"},
		{"mixed", []*experiments.Result{res("a", "x", 80, 1), auc("a", "g")}, []string{"x", "g"}, "Each cell: our test metric (accuracy; ROC AUC on g),", "our test accuracy"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := mainTable(c.rs, []string{"a"}, c.dss, nil)
			if !strings.Contains(s, c.want) || strings.Contains(s, c.not) {
				t.Errorf("caption: want %q and no %q:\n%s", c.want, c.not, s)
			}
		})
	}
	s := mainTable([]*experiments.Result{auc("a", "g")}, []string{"a"}, []string{"g"}, nil)
	if !strings.Contains(s, "higher mean validation ROC AUC") {
		t.Errorf("selection legend names accuracy for ROC AUC cells:\n%s", s)
	}
}

func TestMetricName(t *testing.T) {
	old := res("a", "x", 80, 1)
	old.Metric = "" // saved before results recorded their metric
	if got := metricName([]*experiments.Result{old}, []string{"x"}); got != "accuracy" {
		t.Errorf("unrecorded metric: %q", got)
	}
	if got := metricName(nil, nil); got != "accuracy" {
		t.Errorf("no results: %q", got)
	}
}

// TestExtraSectionNamesTheSplitsRun: a quick run's two splits are not
// called the dataset's 10.
func TestExtraSectionNamesTheSplitsRun(t *testing.T) {
	r := res("gcn", "tolokers", 70, 1)
	r.PerSplit = make([]experiments.SplitResult, 2)
	if s := extraSection([]*experiments.Result{r}, []string{"gcn"}, []string{"tolokers"}); !strings.Contains(s, "Mean ± std over the 2 of the dataset's 10 splits run") {
		t.Errorf("two splits:\n%s", s)
	}
	r.PerSplit = make([]experiments.SplitResult, 10)
	if s := extraSection([]*experiments.Result{r}, []string{"gcn"}, []string{"tolokers"}); !strings.Contains(s, "Mean ± std over the dataset's 10 splits (") {
		t.Errorf("ten splits:\n%s", s)
	}
}
