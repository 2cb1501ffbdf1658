package datasets

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/testkit"
)

// writeUserGraph writes a user graph of len(labels) nodes in a ring, with
// one signed feature column, labels.csv as given (a header line first) and
// no splits.csv.
func writeUserGraph(t *testing.T, labels []int) string {
	t.Helper()
	return testkit.Dir(t, "g", testkit.Ring{N: len(labels), Hops: []int{1}, LabelHeader: "label",
		Label:   func(i int) int { return labels[i] },
		Feature: func(i int) string { return fmt.Sprintf("%g,%d", float64(i%3)-1, labels[i]) }}.Files())
}

func TestLoadPathWith(t *testing.T) {
	cycle := func(n int, ids ...int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = ids[i%len(ids)]
		}
		return out
	}
	typo := cycle(2000, 0, 1, 2, 3, 4, 5)
	typo[1500] = 65535
	spec := graph.DefaultSplitSpec(42)
	tests := []struct {
		name    string
		labels  []int
		opt     Options
		classes int
		splits  int
		ids     []int32
		err     string
	}{
		{"no splits, none asked", cycle(40, 0, 1), Options{}, 2, 0, nil, ""},
		{"random splits drawn", cycle(40, 0, 1), Options{Splits: &spec}, 2, 10, nil, ""},
		{"gap kept", cycle(40, 0, 1, 7), Options{}, 8, 0, nil, ""},
		{"gap remapped", cycle(40, 0, 1, 7), Options{RemapLabels: true, Splits: &spec}, 3, 10, []int32{0, 1, 7}, ""},
		{"typo refused", typo, Options{}, 0, 0, nil, "labels.csv: line 1502: label 65535 would make 65536 classes for 7 distinct labels on 2000 nodes (at most 1000)"},
		{"typo remapped", typo, Options{RemapLabels: true}, 7, 0, []int32{0, 1, 2, 3, 4, 5, 65535}, ""},
		{"too small for the ratio", []int{0, 1}, Options{Splits: &spec}, 0, 0, nil, "empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeUserGraph(t, tc.labels)
			g, err := LoadPathWith(dir, tc.opt)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), dir) {
					t.Fatalf("error %v, want one naming %s and %q", err, dir, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if g.NumClasses != tc.classes || len(g.Splits) != tc.splits || fmt.Sprint(g.LabelIDs) != fmt.Sprint(tc.ids) {
				t.Errorf("%d classes, %d splits, label ids %v; want %d, %d, %v", g.NumClasses, len(g.Splits), g.LabelIDs, tc.classes, tc.splits, tc.ids)
			}
			if (g.DrawnSplits != nil) != (tc.splits > 0) {
				t.Errorf("DrawnSplits %v", g.DrawnSplits)
			}
			if err := g.Validate(); err != nil {
				t.Error(err)
			}
			// Open gives the same graph
			o, err := Open(dir, tc.opt)
			if err != nil || o.Fingerprint() != g.Fingerprint() {
				t.Errorf("Open differs from LoadPathWith: %v", err)
			}
		})
	}
}

func TestDefaultMetric(t *testing.T) {
	two := &graph.Graph{NumClasses: 2}
	five := &graph.Graph{NumClasses: 5}
	for _, tc := range []struct {
		name string
		g    *graph.Graph
		want Metric
	}{
		{"cornell", five, Accuracy},
		{"minesweeper", two, ROCAUC},
		{"own/binary", two, ROCAUC},
		{"own/five", five, Accuracy},
	} {
		if got := DefaultMetric(tc.name, tc.g); got != tc.want {
			t.Errorf("DefaultMetric(%s) = %s, want %s", tc.name, got, tc.want)
		}
	}
	for in, want := range map[string]Metric{"accuracy": Accuracy, "roc_auc": ROCAUC, "rocauc": ROCAUC} {
		if got, err := ParseMetric(in); err != nil || got != want {
			t.Errorf("ParseMetric(%q) = %s, %v", in, got, err)
		}
	}
	if _, err := ParseMetric("f1"); err == nil || !strings.Contains(err.Error(), "f1") {
		t.Errorf("ParseMetric(f1): %v", err)
	}
}
