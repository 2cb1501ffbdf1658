package graph

import (
	"slices"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// labelled returns a graph with the given class sizes (nodes of a class
// interleaved with the others').
func labelled(sizes ...int) *Graph {
	var y []int32
	for left := true; left; {
		left = false
		for c, n := range sizes {
			if n > 0 {
				y = append(y, int32(c))
				sizes[c]--
				left = true
			}
		}
	}
	return &Graph{N: len(y), Y: y, NumClasses: len(sizes)}
}

func TestRandomSplits(t *testing.T) {
	spec := DefaultSplitSpec(42)
	tests := []struct {
		name  string
		sizes []int
		spec  SplitSpec
		// want per class (train, val, test) counts; nil: not checked
		want [][3]int
		err  string
	}{
		{"exact proportions", []int{50, 100}, spec, [][3]int{{30, 10, 10}, {60, 20, 20}}, ""},
		{"remainders add up", []int{7, 11}, spec, [][3]int{{4, 2, 1}, {7, 2, 2}}, ""},
		{"tiny classes train first", []int{1, 2, 3, 40}, spec, [][3]int{{1, 0, 0}, {1, 1, 0}, {1, 1, 1}, {24, 8, 8}}, ""},
		{"empty class", []int{20, 0, 20}, spec, [][3]int{{12, 4, 4}, {0, 0, 0}, {12, 4, 4}}, ""},
		{"fractions below one leave nodes out", []int{100}, SplitSpec{Train: 0.1, Val: 0.1, Test: 0.3, Num: 3, Seed: 1}, [][3]int{{10, 10, 30}}, ""},
		{"too small for a test set", []int{1, 1}, spec, nil, "empty validation set"},
		{"bad ratio", []int{10}, SplitSpec{Train: 0.8, Val: 0.2, Test: 0.2, Num: 1}, nil, "sum to"},
		{"zero fraction", []int{10}, SplitSpec{Train: 0.8, Val: 0, Test: 0.2, Num: 1}, nil, "validation fraction"},
		{"no splits", []int{10}, SplitSpec{Train: 0.6, Val: 0.2, Test: 0.2, Num: 0}, nil, "number of splits"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := labelled(slices.Clone(tc.sizes)...)
			sps, err := RandomSplits(g, tc.spec)
			if testkit.WantErr(t, err, tc.err) {
				return
			}
			if len(sps) != tc.spec.Num {
				t.Fatalf("%d splits, want %d", len(sps), tc.spec.Num)
			}
			for k, sp := range sps {
				seen := map[int32]bool{}
				got := make([][3]int, g.NumClasses)
				for part, idx := range [][]int32{sp.Train, sp.Val, sp.Test} {
					if !slices.IsSorted(idx) {
						t.Errorf("split %d part %d not sorted", k, part)
					}
					for _, i := range idx {
						if seen[i] {
							t.Fatalf("split %d: node %d in two sets", k, i)
						}
						seen[i] = true
						got[g.Y[i]][part]++
					}
				}
				if !slices.Equal(got, tc.want) {
					t.Errorf("split %d: per-class counts %v, want %v", k, got, tc.want)
				}
			}
			g.Splits = sps
			if err := (&Graph{N: g.N, Y: g.Y, NumClasses: g.NumClasses, Splits: sps, Adj: tensor.FromTriplets(g.N, g.N, nil), X: Features{Dense: tensor.NewDense(g.N, 1)}}).Validate(); err != nil {
				t.Errorf("splits do not validate: %v", err)
			}
		})
	}
}

func TestRandomSplitsDeterministic(t *testing.T) {
	g := labelled(30, 30, 30)
	a, _ := RandomSplits(g, DefaultSplitSpec(7))
	b, _ := RandomSplits(g, DefaultSplitSpec(7))
	fewer := DefaultSplitSpec(7)
	fewer.Num = 3
	c, _ := RandomSplits(g, fewer)
	other, _ := RandomSplits(g, DefaultSplitSpec(8))
	for k := range a {
		if !slices.Equal(a[k].Train, b[k].Train) || !slices.Equal(a[k].Test, b[k].Test) {
			t.Fatalf("split %d differs for the same seed", k)
		}
		if k < 3 && !slices.Equal(a[k].Val, c[k].Val) {
			t.Errorf("split %d depends on the number of splits", k)
		}
	}
	if slices.Equal(a[0].Train, a[1].Train) {
		t.Error("splits 0 and 1 are the same")
	}
	if slices.Equal(a[0].Train, other[0].Train) {
		t.Error("seeds 7 and 8 gave the same split")
	}
}

func TestSplitSpecString(t *testing.T) {
	if got := DefaultSplitSpec(42).String(); got != "10 random stratified splits 60/20/20% per class (seed 42)" {
		t.Errorf("got %q", got)
	}
}
