package graph

import (
	"slices"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

func TestWarnings(t *testing.T) {
	edgeless, err := UndirectedAdjacency(3, nil)
	if err != nil {
		t.Fatal(err)
	}
	one, err := UndirectedAdjacency(3, []Edge{{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		y    []int32
		adj  *tensor.CSR
		want []string
	}{
		{"fine", []int32{0, 1, 0}, one, nil},
		{"one class", []int32{2, 2, 2}, one, []string{
			"every node has label 2: with one class every prediction is right, so the scores measure nothing (a classifier needs two classes or more)",
			"2 of 3 classes have no node: 0, 1 (classes run from 0 to the largest label, 2; remapping the labels to dense ids drops them)"}},
		{"no edges", []int32{0, 1, 0}, edgeless, []string{
			"the graph has no edges: a graph model sees only each node's own features, as an MLP does"}},
	}
	for _, tc := range tests {
		g := &Graph{N: len(tc.y), Y: tc.y, NumClasses: int(slices.Max(tc.y)) + 1, Adj: tc.adj}
		if got := g.Warnings(); !slices.Equal(got, tc.want) {
			t.Errorf("%s: warnings\n%q\nwant\n%q", tc.name, got, tc.want)
		}
	}
}
