package train

import (
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestCheckGraph(t *testing.T) {
	mk := func(name string, x float32, classes int) *graph.Graph {
		d := tensor.NewDense(4, 2)
		d.Data[0] = x
		y := []int32{0, 1, 0, int32(classes - 1)}
		return &graph.Graph{Name: name, N: 4, Adj: tensor.FromTriplets(4, 4, nil), X: graph.Features{Dense: d}, Y: y, NumClasses: classes}
	}
	trained := mk("sbm", 1, 2)
	meta := func(fp bool) *SavedMeta {
		m := &SavedMeta{Dataset: "sbm", Nodes: 4, Features: 2, Classes: 2}
		if fp {
			m.GraphFingerprint = trained.ContentFingerprint()
		}
		return m
	}
	remapped := meta(true)
	remapped.LabelIDs = []int32{0, 7}
	withSplits := mk("sbm_nosplit", 1, 2)
	withSplits.Splits = []graph.Split{{Train: []int32{0}, Val: []int32{1}, Test: []int32{2}}}
	tests := []struct {
		name    string
		meta    *SavedMeta
		g       *graph.Graph
		warning string
		err     string
	}{
		{"same graph", meta(true), mk("sbm", 1, 2), "", ""},
		{"renamed folder, other splits", meta(true), withSplits, "", ""},
		{"edited in place", meta(true), mk("sbm", 2, 2), "sbm differs in content (edges, features or labels) from the graph the model in DIR was trained on", ""},
		{"another graph of the same size", meta(true), mk("texas", 2, 2), "", "model in DIR was trained on sbm, and texas is another graph of the same size (content fingerprint sha256:"},
		{"other class count", meta(true), mk("sbm", 1, 3), "", "model in DIR does not fit sbm: the graph has 3 classes, not 2"},
		{"labels not remapped", remapped, mk("sbm", 1, 8), "", "not 2 (the model was trained with its labels remapped to dense ids: remap them here too)"},
		{"old model, same name", meta(false), mk("sbm", 2, 2), "", ""},
		{"old model, other name", meta(false), mk("sbm_nosplit", 1, 2), "", "model in DIR was trained on sbm, not sbm_nosplit (it records no content fingerprint to compare)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, err := checkGraph("DIR", tc.meta, tc.g)
			if testkit.WantErr(t, err, tc.err) {
				return
			}
			if (tc.warning == "") != (w == "") || !strings.Contains(w, tc.warning) {
				t.Errorf("warning %q, want %q", w, tc.warning)
			}
		})
	}
}

func TestCheckBothClasses(t *testing.T) {
	y := []int32{0, 1, 0, 1, 1, 1}
	tests := []struct {
		name string
		sp   graph.Split
		want string
	}{
		{"both", graph.Split{Train: []int32{0}, Val: []int32{1, 2}, Test: []int32{3, 0}}, ""},
		{"single validation class", graph.Split{Train: []int32{0}, Val: []int32{1, 4}, Test: []int32{3, 2}}, "split 3: the validation set holds class 1 only"},
		{"single test class", graph.Split{Train: []int32{0}, Val: []int32{1, 2}, Test: []int32{5}}, "split 3: the test set holds class 1 only"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := checkBothClasses(y, 3, tc.sp)
			if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}
