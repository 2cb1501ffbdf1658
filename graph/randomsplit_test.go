package graph

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

func TestRandomSplit(t *testing.T) {
	n := 40
	y := make([]int32, n)
	for i := range y {
		y[i] = int32(i % 3)
	}
	y[39] = 2
	g := &Graph{N: n, Y: y, NumClasses: 4} // class 3 is empty
	sp, err := RandomSplit(g, 5, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[int32]int{}
	seen := map[int32]bool{}
	for _, part := range [][]int32{sp.Train, sp.Val, sp.Test} {
		for _, i := range part {
			if seen[i] {
				t.Fatalf("node %d in two sets", i)
			}
			seen[i] = true
		}
	}
	for _, i := range sp.Train {
		counts[y[i]]++
	}
	if counts[0] != 5 || counts[1] != 5 || counts[2] != 5 || len(sp.Val) != 10 || len(sp.Test) != n-25 {
		t.Errorf("counts %v, val %d, test %d", counts, len(sp.Val), len(sp.Test))
	}
	again, _ := RandomSplit(g, 5, 10, 1)
	for i := range sp.Train {
		if again.Train[i] != sp.Train[i] {
			t.Fatal("not deterministic")
		}
	}
	other, _ := RandomSplit(g, 5, 10, 2)
	same := true
	for i := range sp.Train {
		same = same && other.Train[i] == sp.Train[i]
	}
	if same {
		t.Error("different seeds gave the same split")
	}
	// a class smaller than perClass keeps one node out of training
	small, err := RandomSplit(g, 20, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(small.Train) != 12+12+13 || len(small.Val) != 1 || len(small.Test) != 2 {
		t.Errorf("%d training nodes, want all but one of each class", len(small.Train))
	}
	capped, err := RandomSplit(g, 5, 100, 1)
	if err != nil || len(capped.Val) != (n-15)/2 {
		t.Errorf("validation set not capped at half the rest: %d, %v", len(capped.Val), err)
	}
	tiny := &Graph{N: 2, Y: []int32{0, 1}, NumClasses: 2}
	if _, err := RandomSplit(tiny, 1, 1, 1); err == nil {
		t.Error("a split with no node left for validation accepted")
	}
}

func TestRowNormalized(t *testing.T) {
	d := tensor.FromRows([][]float32{{1, 3}, {0, 0}, {-1, 0.5}, {2, 0}})
	for name, f := range map[string]Features{"dense": {Dense: d}, "sparse": {Sparse: tensor.DenseToCSR(d)}} {
		t.Run(name, func(t *testing.T) {
			got := f.RowNormalized().ToDense()
			want := [][]float32{{0.25, 0.75}, {0, 0}, {-1, 0.5}, {1, 0}}
			for i, row := range want {
				for j, v := range row {
					if got.At(i, j) != v {
						t.Errorf("(%d,%d) = %v, want %v", i, j, got.At(i, j), v)
					}
				}
			}
		})
	}
}
