package graph

import (
	"math"

	"github.com/pcgcn/pcgcn/tensor"
)

// GCNNorm returns Â = D̃^{-1/2}(A + I)D̃^{-1/2}, the symmetrically normalised
// adjacency with self-loops of Kipf & Welling (the paper's Â), marked
// symmetric. adj must have no self-loops (as every loader guarantees).
func GCNNorm(adj *tensor.CSR) *tensor.CSR {
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
	return a.MarkSymmetric()
}
