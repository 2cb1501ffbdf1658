package graph

import (
	"slices"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

func TestLabelRangeAndRemap(t *testing.T) {
	many := make([]int32, 2000)
	for i := range many {
		many[i] = int32(i % 6)
	}
	typo := slices.Clone(many)
	typo[1234] = 65535
	tests := []struct {
		name     string
		y        []int32
		ok       bool
		node     int
		remapped []int32
		ids      []int32
	}{
		{"dense", []int32{0, 1, 2, 1}, true, 0, []int32{0, 1, 2, 1}, nil},
		{"gap within limits", []int32{0, 1, 7, 7, 0, 1, 1, 0}, true, 0, []int32{0, 1, 2, 2, 0, 1, 1, 0}, []int32{0, 1, 7}},
		{"more classes than nodes", []int32{0, 1, 7}, false, 2, []int32{0, 1, 2}, []int32{0, 1, 7}},
		{"typo", typo, false, 1234, nil, nil},
		{"many classes allowed up to 1000", append(slices.Clone(many), 999), true, 0, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := &Graph{N: len(tc.y), Y: slices.Clone(tc.y), NumClasses: int(slices.Max(tc.y)) + 1}
			node, _, ok := g.CheckLabelRange()
			if ok != tc.ok || (!ok && node != tc.node) {
				t.Errorf("CheckLabelRange = node %d, ok %v; want %d, %v", node, ok, tc.node, tc.ok)
			}
			changed := g.RemapLabels()
			if changed != (tc.ids != nil || tc.name == "typo" || strings.HasPrefix(tc.name, "many")) {
				t.Errorf("RemapLabels changed %v", changed)
			}
			if tc.remapped != nil && (!slices.Equal(g.Y, tc.remapped) || !slices.Equal(g.LabelIDs, tc.ids)) {
				t.Errorf("remapped %v ids %v, want %v %v", g.Y, g.LabelIDs, tc.remapped, tc.ids)
			}
			if g.NumClasses != len(DistinctLabels(tc.y)) {
				t.Errorf("%d classes after remapping", g.NumClasses)
			}
		})
	}
}

func TestLabelWarnings(t *testing.T) {
	y := []int32{0, 1, 7, 0, 1, 7, 0, 1}
	g := &Graph{N: len(y), Y: y, NumClasses: 8, Splits: []Split{
		{Train: []int32{0, 1, 2}, Val: []int32{3}, Test: []int32{4}},
		{Train: []int32{0, 3}, Val: []int32{1}, Test: []int32{2}},
		{Train: []int32{0, 1}, Val: []int32{3}, Test: []int32{2}},
		{Train: []int32{3, 6}, Val: []int32{1}, Test: []int32{2}},
	}}
	got := g.LabelWarnings()
	want := []string{
		"5 of 8 classes have no node: 2, 3, 4, 5, 6 (classes run from 0 to the largest label, 7; remapping the labels to dense ids drops them)",
		"splits 1, 3: classes 1, 7 have no training node, so the model cannot predict them",
		"split 2: class 7 has no training node, so the model cannot predict it",
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings\n%q\nwant\n%q", got, want)
	}
	g.RemapLabels()
	g.Splits = g.Splits[:1]
	if w := g.LabelWarnings(); w != nil {
		t.Errorf("warnings after remapping: %q", w)
	}
	if s := idList([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}); s != "0, 1, 2, 3, 4, 5, 6, 7, 8, 9 and 2 more" {
		t.Errorf("idList %q", s)
	}
}

func TestNonNegative(t *testing.T) {
	for _, tc := range []struct {
		name string
		rows [][]float32
		want bool
	}{
		{"counts", [][]float32{{0, 1}, {2, 0}}, true},
		{"signed", [][]float32{{0.5, -0.1}, {2, 0}}, false},
		{"sparse signed", [][]float32{{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := NewFeatures(tensor.FromRows(tc.rows)).NonNegative(); got != tc.want {
				t.Errorf("NonNegative = %v", got)
			}
		})
	}
}
