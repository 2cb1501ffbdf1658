package graph

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

// tripletAdjacency is the reference construction the counting sort replaced:
// both directions as triplets, summed by FromTriplets, values reset to 1.
func tripletAdjacency(n int, edges []Edge, both bool) *tensor.CSR {
	ts := make([]tensor.Triplet, 0, 2*len(edges))
	for _, e := range edges {
		if e[0] != e[1] {
			ts = append(ts, tensor.Triplet{Row: e[0], Col: e[1], Val: 1})
			if both {
				ts = append(ts, tensor.Triplet{Row: e[1], Col: e[0], Val: 1})
			}
		}
	}
	a := tensor.FromTriplets(n, n, ts)
	for k := range a.Val {
		a.Val[k] = 1
	}
	return a
}

func TestAdjacencyMatchesTriplets(t *testing.T) {
	for _, n := range []int{1, 7, 300, 20_000} { // 100k edges at 20k nodes: the parallel path
		es := benchEdges(n, 5*n) // many duplicates and self-loops at small n
		for _, both := range []bool{true, false} {
			t.Run(fmt.Sprintf("n=%d both=%v", n, both), func(t *testing.T) {
				got, err := buildAdjacency(n, es, both)
				if err != nil {
					t.Fatal(err)
				}
				want := tripletAdjacency(n, es, both)
				if !reflect.DeepEqual(got.RowPtr, want.RowPtr) || !reflect.DeepEqual(got.ColIdx, want.ColIdx) || !reflect.DeepEqual(got.Val, want.Val) {
					t.Fatal("counting sort differs from FromTriplets")
				}
			})
		}
	}
	if _, err := UndirectedAdjacency(3, []Edge{{0, 1}, {2, 3}}); err == nil {
		t.Fatal("edge to node 3 of 3 accepted")
	}
}
