package graph

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

// tripletGCNNorm is the FromTriplets construction GCNNorm replaced, kept as
// the reference its results must match bit for bit (saved cells depend on
// them).
func tripletGCNNorm(adj *tensor.CSR) *tensor.CSR {
	n := adj.Rows
	ts := make([]tensor.Triplet, 0, adj.NNZ()+n)
	deg := make([]float64, n)
	for i := 0; i < n; i++ {
		ts = append(ts, tensor.Triplet{Row: int32(i), Col: int32(i), Val: 1})
		deg[i] = 1
		for k := adj.RowPtr[i]; k < adj.RowPtr[i+1]; k++ {
			ts = append(ts, tensor.Triplet{Row: int32(i), Col: adj.ColIdx[k], Val: adj.Val[k]})
			deg[i] += float64(adj.Val[k])
		}
	}
	a := tensor.FromTriplets(n, n, ts)
	for i := 0; i < n; i++ {
		for k := a.RowPtr[i]; k < a.RowPtr[i+1]; k++ {
			j := a.ColIdx[k]
			a.Val[k] = float32(float64(a.Val[k]) / math.Sqrt(deg[i]*deg[j]))
		}
	}
	return a
}

func TestGCNNormMatchesTriplets(t *testing.T) {
	for _, n := range []int{1, 2, 9, 500} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			adj, err := UndirectedAdjacency(n, benchEdges(n, 3*n))
			if err != nil {
				t.Fatal(err)
			}
			// weighted values too, and a self-loop (rows 0 and n-1 get one)
			w := make([]float32, adj.NNZ())
			for k := range w {
				w[k] = float32(k%7+1) / 3
			}
			loop, _ := DirectedAdjacency(n, append(benchEdges(n, 2*n), Edge{0, 0}))
			ts := []tensor.Triplet{{Row: 0, Col: 0, Val: 2}}
			if n > 1 {
				ts = append(ts, tensor.Triplet{Row: int32(n - 1), Col: int32(n - 1), Val: 0.5})
			}
			for i := 0; i < n; i++ {
				for k := loop.RowPtr[i]; k < loop.RowPtr[i+1]; k++ {
					ts = append(ts, tensor.Triplet{Row: int32(i), Col: loop.ColIdx[k], Val: 1})
				}
			}
			for _, a := range []*tensor.CSR{adj, adj.WithValues(w), tensor.FromTriplets(n, n, ts)} {
				got, want := GCNNorm(a), tripletGCNNorm(a)
				if !reflect.DeepEqual(got.RowPtr, want.RowPtr) || !reflect.DeepEqual(got.ColIdx, want.ColIdx) {
					t.Fatalf("n %d: pattern differs", n)
				}
				for k := range got.Val {
					if math.Float32bits(got.Val[k]) != math.Float32bits(want.Val[k]) {
						t.Fatalf("n %d: value %d is %v, want %v", n, k, got.Val[k], want.Val[k])
					}
				}
				if !got.Symmetric() {
					t.Fatal("not marked symmetric")
				}
			}
		})
	}
}

// TestDirectedGCNNorm checks the directed normalisation against a dense
// computation of D̃^{-1/2}(A+I)D̃^{-1/2} with D̃ the row sums (out-degrees + 1),
// on a graph where the two directions of a pair differ.
func TestDirectedGCNNorm(t *testing.T) {
	edges := []Edge{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {3, 0}, {4, 0}}
	out, err := DirectedAdjacency(5, edges)
	if err != nil {
		t.Fatal(err)
	}
	a := DirectedGCNNorm(out)
	if a.Symmetric() {
		t.Error("a directed normalisation is marked symmetric")
	}
	dense := [5][5]float64{}
	deg := [5]float64{}
	for i := range 5 {
		dense[i][i] = 1
	}
	for _, e := range edges {
		dense[e[0]][e[1]] = 1
	}
	for i := range 5 {
		for j := range 5 {
			deg[i] += dense[i][j]
		}
	}
	got := a.ToDense()
	for i := range 5 {
		for j := range 5 {
			want := dense[i][j] / math.Sqrt(deg[i]*deg[j])
			if math.Abs(float64(got.At(i, j))-want) > 1e-7 {
				t.Errorf("(%d, %d) = %v, want %v", i, j, got.At(i, j), want)
			}
		}
	}
	// on a symmetric adjacency: GCNNorm's values
	und, _ := UndirectedAdjacency(5, edges)
	s, d := GCNNorm(und), DirectedGCNNorm(und)
	if !reflect.DeepEqual(s.Val, d.Val) || !reflect.DeepEqual(s.ColIdx, d.ColIdx) {
		t.Error("DirectedGCNNorm of a symmetric graph differs from GCNNorm")
	}
}

func TestSelfLoopDegrees(t *testing.T) {
	// path 0-1-2 plus isolated 3: degrees 1, 2, 1, 0, each plus the self-loop
	adj := handGraph(t, 4, []Edge{{0, 1}, {1, 2}}, false).Adj
	if got := SelfLoopDegrees(adj); !reflect.DeepEqual(got, []float64{2, 3, 2, 1}) {
		t.Errorf("SelfLoopDegrees = %v, want [2 3 2 1]", got)
	}
}
