// Package ref64 is test support: the float64 matrix arithmetic that tests
// write their reference forward passes in (plain loops, no kernels), to
// compare with what the float32 kernels and layers compute.
package ref64

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

// Dense returns d's rows in float64.
func Dense(d *tensor.Dense) [][]float64 {
	out := make([][]float64, d.Rows)
	for i := range out {
		out[i] = make([]float64, d.Cols)
		for j := range out[i] {
			out[i][j] = float64(d.At(i, j))
		}
	}
	return out
}

// Mul returns the product a·b.
func Mul(a, b [][]float64) [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		out[i] = make([]float64, len(b[0]))
		for k := range b {
			for j := range b[0] {
				out[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return out
}

// AddRow adds row to every row of a, in place, and returns a.
func AddRow(a [][]float64, row []float64) [][]float64 {
	for i := range a {
		for j := range a[i] {
			a[i][j] += row[j]
		}
	}
	return a
}

// AssertClose fails t at the first element of got farther from want than
// tol relative to 1+|want|.
func AssertClose(t testing.TB, what string, got *tensor.Dense, want [][]float64, tol float64) {
	t.Helper()
	for i := range want {
		for j := range want[i] {
			g := float64(got.At(i, j))
			if math.Abs(g-want[i][j]) > tol*(1+math.Abs(want[i][j])) {
				t.Fatalf("%s[%d][%d] = %.7g, want %.7g", what, i, j, g, want[i][j])
			}
		}
	}
}
