package tensor

import (
	"fmt"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// skewedGraph is a symmetric n-node graph with self-loops and a few rows of
// high degree, some rows without entries (no self-loop, no edge), and
// values that are not all one.
func skewedGraph(n int, seed uint64) *CSR {
	r := newRand(seed)
	var ts []Triplet
	for i := 0; i < n; i++ {
		if i%11 == 5 {
			continue // an empty row (unless an edge below reaches it)
		}
		ts = append(ts, Triplet{Row: int32(i), Col: int32(i), Val: 0.5})
	}
	for i := 0; i < n; i++ {
		if i%11 == 5 {
			continue
		}
		deg := 1 + r.IntN(4)
		if i%7 == 0 {
			deg = 20 + r.IntN(30)
		}
		for range deg {
			j := r.IntN(n)
			if j == i || j%11 == 5 {
				continue
			}
			v := float32(r.Float64())
			ts = append(ts, Triplet{Row: int32(i), Col: int32(j), Val: v}, Triplet{Row: int32(j), Col: int32(i), Val: v})
		}
	}
	a := FromTriplets(n, n, dedupTriplets(ts))
	a.MarkSymmetric()
	return a
}

// dedupTriplets keeps the first of repeated (row, col) triplets.
func dedupTriplets(ts []Triplet) []Triplet {
	seen := map[[2]int32]bool{}
	out := ts[:0]
	for _, t := range ts {
		k := [2]int32{t.Row, t.Col}
		if !seen[k] {
			seen[k] = true
			out = append(out, t)
		}
	}
	return out
}

// TestSpMMNarrowMatchesRowByRow compares SpMM and a symmetric SpMMT of at
// most eight columns (the narrow path: rows four at a time by degree) with
// spmm's row-by-row loop, bit for bit, at every width 1..8 and 9 (the
// ordinary path), several alpha and beta, 1 to 3 goroutines, on a graph
// with empty rows and skewed degrees and a b holding signed zeros,
// infinities and a NaN, over a c holding a NaN that a beta of 0 must not
// read (the narrow kernel then folds onto +0 without clearing).
func TestSpMMNarrowMatchesRowByRow(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels: SpMM never takes the narrow path")
	}
	a := skewedGraph(1500, 3) // 18,582 entries: widths from 2 up run in parallel pieces
	if rows, nnz := a.byDegree(); len(rows) != a.Rows || int(nnz[a.Rows]) != a.NNZ() {
		t.Fatalf("byDegree: %d rows and %d entries, want %d and %d", len(rows), nnz[a.Rows], a.Rows, a.NNZ())
	}
	r := newRand(9)
	for cols := 1; cols <= 9; cols++ {
		b := randDense(r, a.Cols, cols)
		b.Data[3] = float32(math.Copysign(0, -1))
		b.Data[7*cols] = float32(math.Inf(-1))
		b.Data[50*cols] = float32(math.NaN())
		c0 := randDense(r, a.Rows, cols)
		c0.Data[5*cols] = float32(math.Copysign(0, -1)) // row 5 is empty: −0 stays
		c0.Data[9*cols] = float32(math.NaN())           // beta 0 must not read it
		for _, ab := range [][2]float32{{1, 0}, {1, 1}, {-0.5, 0.3}, {0, 1}} {
			alpha, beta := ab[0], ab[1]
			want := c0.Clone()
			spmm(Exec{Threads: 1}, alpha, a.RowPtr, a.ColIdx, a.Val, nil, b, beta, want)
			for _, threads := range []int{1, 2, 3} {
				for _, transposed := range []bool{false, true} {
					got := c0.Clone()
					if transposed {
						SpMMT(Exec{Threads: threads}, alpha, a, b, beta, got)
					} else {
						SpMM(Exec{Threads: threads}, alpha, a, b, beta, got)
					}
					if i := bitsEqual(got.Data, want.Data); i >= 0 {
						t.Fatalf("cols %d alpha %g beta %g threads %d transposed %v: element %d is %v (%#x), row by row %v (%#x)",
							cols, alpha, beta, threads, transposed, i, got.Data[i], math.Float32bits(got.Data[i]), want.Data[i], math.Float32bits(want.Data[i]))
					}
				}
			}
		}
	}
}

// ExampleSpMM multiplies a small graph's propagation matrix by a 3×2 block
// of class scores (a narrow product, taken four rows at a time where the
// vector kernels exist, with the bits of the row-by-row loop).
func ExampleSpMM() {
	a := FromTriplets(3, 3, []Triplet{{0, 0, 0.5}, {0, 1, 0.5}, {1, 0, 0.5}, {1, 1, 0.5}, {2, 2, 1}})
	s := NewDense(3, 2)
	copy(s.Data, []float32{1, 0, 0, 1, 0.25, 0.75})
	out := NewDense(3, 2)
	SpMM(Exec{}, 1, a, s, 0, out)
	for i := range 3 {
		fmt.Println(out.Row(i))
	}
	// Output:
	// [0.5 0.5]
	// [0.5 0.5]
	// [0.25 0.75]
}
