package tensor

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Naive float64-accumulating references and helpers shared by the kernel tests.

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

func randDense(r *rand.Rand, rows, cols int) *Dense {
	d := NewDense(rows, cols)
	for i := range d.Data {
		d.Data[i] = float32(r.NormFloat64())
	}
	return d
}

// randOperands returns random a and b stored so that op(a) is m×k and
// op(b) is k×n (a is k×m when transA, b is n×k when transB).
func randOperands(r *rand.Rand, m, k, n int, transA, transB bool) (a, b *Dense) {
	if transA {
		a = randDense(r, k, m)
	} else {
		a = randDense(r, m, k)
	}
	if transB {
		b = randDense(r, n, k)
	} else {
		b = randDense(r, k, n)
	}
	return a, b
}

// randCSR returns a rows×cols CSR with about density·cols entries per row,
// leaving every third row empty when emptyRows is set.
func randCSR(r *rand.Rand, rows, cols int, density float64, emptyRows bool) *CSR {
	var ts []Triplet
	for i := 0; i < rows; i++ {
		if emptyRows && i%3 == 1 {
			continue
		}
		for j := 0; j < cols; j++ {
			if r.Float64() < density {
				ts = append(ts, Triplet{Row: int32(i), Col: int32(j), Val: float32(r.NormFloat64())})
			}
		}
	}
	return FromTriplets(rows, cols, ts)
}

// opAt returns op(x)[i,j].
func opAt(x *Dense, trans bool, i, j int) float64 {
	if trans {
		return float64(x.At(j, i))
	}
	return float64(x.At(i, j))
}

// refGemm returns alpha·op(a)·op(b) + beta·c0 in float64, and per element the
// sum of absolute values of the terms (the scale of rounding errors).
func refGemm(transA, transB bool, alpha float32, a, b *Dense, beta float32, c0 *Dense) (want, scale []float64) {
	m, n := c0.Rows, c0.Cols
	k := a.Cols
	if transA {
		k = a.Rows
	}
	want = make([]float64, m*n)
	scale = make([]float64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s, abs float64
			for p := 0; p < k; p++ {
				t := opAt(a, transA, i, p) * opAt(b, transB, p, j)
				s += t
				abs += math.Abs(t)
			}
			cv := 0.0
			if beta != 0 {
				cv = float64(beta) * float64(c0.At(i, j))
			}
			want[i*n+j] = float64(alpha)*s + cv
			scale[i*n+j] = math.Abs(float64(alpha))*abs + math.Abs(cv)
		}
	}
	return want, scale
}

// refSpMM returns alpha·op(a)·b + beta·c0 in float64 with error scales,
// reading a through its dense form.
func refSpMM(trans bool, alpha float32, a *CSR, b *Dense, beta float32, c0 *Dense) (want, scale []float64) {
	ad := a.ToDense()
	return refGemm(trans, false, alpha, ad, b, beta, c0)
}

// checkClose fails t unless got[i] is within float32 rounding of want[i].
func checkClose(t *testing.T, what string, got []float32, want, scale []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i, g := range got {
		tol := 2e-6*scale[i] + 1e-6
		if math.IsNaN(float64(g)) || math.Abs(float64(g)-want[i]) > tol {
			t.Fatalf("%s: element %d = %v, want %v (tolerance %.3g)", what, i, g, want[i], tol)
		}
	}
}

func bitsEqual(a, b []float32) int {
	if len(a) != len(b) {
		return 0
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return i
		}
	}
	return -1
}
