package studies

import (
	"strings"
	"testing"
)

// TestJudgeSLD: the label-distance verdict follows from the numbers it
// cites: a largest "gain" that is a loss never agrees with the paper, and
// the graph's kind comes from its measured edge homophily (issue 35, item
// 7: an own homophilous graph with PCGCN 29.6 points behind GCN at SLD 1 was
// said to agree).
func TestJudgeSLD(t *testing.T) {
	b := func(label string, min, nodes int, pc, gcn float64) distanceBucket {
		return distanceBucket{Label: label, Min: min, Nodes: nodes, Acc: []float64{pc, gcn}}
	}
	near := []distanceBucket{b("1", 1, 500, 80, 70), b("3", 3, 100, 50, 49)}
	far := []distanceBucket{b("1", 1, 500, 80, 79), b("3", 3, 100, 60, 50)}
	behind := []distanceBucket{b("1", 1, 500, 50.4, 80), b("2", 2, 100, 40, 70)}
	cases := []struct {
		name                  string
		buckets               []distanceBucket
		h                     float64
		judged, gains, agrees bool
		want                  string
	}{
		{"near on heterophilous", near, 0.2, true, true, true, "with edge homophily 0.20 (heterophilous) the paper expects it at SLD 1–2: this agrees."},
		{"near on homophilous", near, 0.8, true, true, false, "with edge homophily 0.80 (homophilous) the paper expects it at SLD ≥ 3: this does not agree."},
		{"far on homophilous", far, 0.8, true, true, true, "at SLD 3 (+10.0 points"},
		{"far on heterophilous", far, 0.2, true, true, false, "this does not agree"},
		{"behind everywhere", behind, 0.8, true, false, false, "PCGCN is behind GCN or level everywhere (closest at SLD 1: -29.6 points"},
		{"too few nodes", []distanceBucket{b("1", 1, 5, 90, 10)}, 0.2, false, false, false, "not judged"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			j := judgeSLD(c.buckets, c.h)
			if j.judged != c.judged || j.gains != c.gains || j.agrees != c.agrees || !strings.Contains(j.text, c.want) {
				t.Errorf("judged %v gains %v agrees %v, want %v %v %v; text %q, want it to contain %q", j.judged, j.gains, j.agrees, c.judged, c.gains, c.agrees, j.text, c.want)
			}
			if !c.gains && strings.Contains(j.text, "largest gain over GCN is") {
				t.Errorf("a loss called a gain: %q", j.text)
			}
		})
	}
	if j := judgeSLD(behind, 0.8); !strings.HasPrefix(j.text, "PCGCN is more accurate than GCN at no SLD.") {
		t.Errorf("no better bucket: %q", j.text)
	}
}
