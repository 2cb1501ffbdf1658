package manifold

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// PCA settings.
const (
	// exactPCAMaxDims is the widest input whose covariance is
	// eigendecomposed exactly; wider inputs use randomized subspace iteration.
	exactPCAMaxDims = 256
	pcaOversample   = 10 // extra columns of the randomized range finder
	pcaPowerIters   = 4  // subspace iterations of the randomized range finder
)

// pca returns the scores (row-major n×k) of the n×d row-major matrix x on its
// first k principal components, k ≤ min(n, d).
//
// Up to exactPCAMaxDims columns it eigendecomposes the d×d covariance (gonum
// EigenSym). Wider inputs, such as 2,000-word bag-of-words features, use the
// randomized subspace iteration of Halko, Martinsson and Tropp (2011) with
// k+10 Gaussian test vectors drawn from r and 4 power iterations: products
// run over the non-zeros of x (the centring is a rank-one correction), so a
// sparse 0/1 input costs its non-zeros, and a thin SVD of the small projected
// matrix gives the components. Each component's sign is fixed by making its
// largest-magnitude coordinate positive. Every product splits its output
// among goroutines with a fixed summation order, so the result does not
// depend on the number of goroutines.
func pca(ex tensor.Exec, x []float64, n, d, k int, r *rng.RNG) []float64 {
	mean := make([]float64, d)
	for i := 0; i < n; i++ {
		for c, v := range x[i*d : (i+1)*d] {
			mean[c] += v
		}
	}
	for c := range mean {
		mean[c] /= float64(n)
	}
	rows := newRowMatrix(x, n, d)
	var comps *mat.Dense // d×k
	if d <= exactPCAMaxDims {
		comps = exactComponents(ex, x, mean, n, d, k)
	} else {
		comps = randomizedComponents(ex, rows, mean, k, r)
	}
	fixSigns(comps)
	cols := make([][]float64, k)
	for j := range cols {
		cols[j] = mat.Col(nil, j, comps)
	}
	scores := rows.centredTimes(ex, cols, mean) // k columns of length n
	out := make([]float64, n*k)
	for j, col := range scores {
		for i, v := range col {
			out[i*k+j] = v
		}
	}
	return out
}

// exactComponents returns the top-k eigenvectors (d×k, by decreasing
// eigenvalue) of the covariance of x.
func exactComponents(ex tensor.Exec, x, mean []float64, n, d, k int) *mat.Dense {
	cov := make([]float64, d*d)
	// Row a of the upper triangle sums over the points in order.
	ex.For(d, n*d*d/2, func(lo, hi int) {
		for a := lo; a < hi; a++ {
			ca := cov[a*d : (a+1)*d]
			for i := 0; i < n; i++ {
				xi := x[i*d : (i+1)*d]
				va := xi[a] - mean[a]
				if va == 0 {
					continue
				}
				for b := a; b < d; b++ {
					ca[b] += va * (xi[b] - mean[b])
				}
			}
		}
	})
	sym := mat.NewSymDense(d, nil)
	for a := 0; a < d; a++ {
		for b := a; b < d; b++ {
			sym.SetSym(a, b, cov[a*d+b]/float64(max(n-1, 1)))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(sym, true) {
		panic("embed: PCA eigendecomposition did not converge")
	}
	var vec mat.Dense
	eig.VectorsTo(&vec) // columns by increasing eigenvalue
	comps := mat.NewDense(d, k, nil)
	for j := 0; j < k; j++ {
		for c := 0; c < d; c++ {
			comps.Set(c, j, vec.At(c, d-1-j))
		}
	}
	return comps
}

// randomizedComponents approximates the top-k principal directions (d×k) of
// x centred by mean.
func randomizedComponents(ex tensor.Exec, x *rowMatrix, mean []float64, k int, r *rng.RNG) *mat.Dense {
	n, d := x.n, x.d
	l := min(k+pcaOversample, n, d)
	omega := make([][]float64, l)
	for j := range omega {
		omega[j] = make([]float64, d)
		for c := range omega[j] {
			omega[j][c] = r.NormFloat64()
		}
	}
	q := x.centredTimes(ex, omega, mean) // l columns of length n
	orthonormalize(q)
	for it := 0; it < pcaPowerIters; it++ {
		z := x.centredTransTimes(ex, q, mean) // l columns of length d
		orthonormalize(z)
		q = x.centredTimes(ex, z, mean)
		orthonormalize(q)
	}
	// B = Qᵀ·Xc (l×d), from its transpose Xcᵀ·Q.
	bt := x.centredTransTimes(ex, q, mean)
	b := mat.NewDense(l, d, nil)
	for j := range bt {
		b.SetRow(j, bt[j])
	}
	var svd mat.SVD
	if !svd.Factorize(b, mat.SVDThin) {
		panic("embed: PCA SVD did not converge")
	}
	var v mat.Dense
	svd.VTo(&v) // d×l, by decreasing singular value
	comps := mat.NewDense(d, k, nil)
	comps.Copy(v.Slice(0, d, 0, k))
	return comps
}

// fixSigns flips each column of m so that its largest-magnitude entry (the
// first of equals) is positive.
func fixSigns(m *mat.Dense) {
	rows, cols := m.Dims()
	for j := 0; j < cols; j++ {
		best := 0
		for c := 1; c < rows; c++ {
			if math.Abs(m.At(c, j)) > math.Abs(m.At(best, j)) {
				best = c
			}
		}
		if m.At(best, j) < 0 {
			for c := 0; c < rows; c++ {
				m.Set(c, j, -m.At(c, j))
			}
		}
	}
}

// orthonormalize makes the vectors v orthonormal in place by modified
// Gram–Schmidt, run twice for accuracy. A vector that vanishes is left zero.
func orthonormalize(v [][]float64) {
	for pass := 0; pass < 2; pass++ {
		for j := range v {
			for p := 0; p < j; p++ {
				var dot float64
				for i, a := range v[p] {
					dot += a * v[j][i]
				}
				for i, a := range v[p] {
					v[j][i] -= dot * a
				}
			}
			var norm float64
			for _, a := range v[j] {
				norm += a * a
			}
			norm = math.Sqrt(norm)
			if norm < 1e-300 {
				clear(v[j])
				continue
			}
			for i := range v[j] {
				v[j][i] /= norm
			}
		}
	}
}

// rowMatrix holds the non-zeros of an n×d matrix row by row.
type rowMatrix struct {
	n, d int
	ptr  []int
	col  []int32
	val  []float64
}

// newRowMatrix stores the non-zeros of the row-major n×d matrix x.
func newRowMatrix(x []float64, n, d int) *rowMatrix {
	m := &rowMatrix{n: n, d: d, ptr: make([]int, n+1)}
	for i := 0; i < n; i++ {
		for c, v := range x[i*d : (i+1)*d] {
			if v != 0 {
				m.col = append(m.col, int32(c))
				m.val = append(m.val, v)
			}
		}
		m.ptr[i+1] = len(m.col)
	}
	return m
}

// centredTimes returns (X − 1·meanᵀ)·v for the columns v (each of length d),
// as columns of length n. Rows are split among goroutines.
func (m *rowMatrix) centredTimes(ex tensor.Exec, v [][]float64, mean []float64) [][]float64 {
	l := len(v)
	shift := make([]float64, l) // meanᵀ·v_j
	out := make([][]float64, l)
	for j := range v {
		for c, a := range mean {
			shift[j] += a * v[j][c]
		}
		out[j] = make([]float64, m.n)
	}
	ex.For(m.n, len(m.val)*l, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			for j := range v {
				var s float64
				for e := m.ptr[i]; e < m.ptr[i+1]; e++ {
					s += m.val[e] * v[j][m.col[e]]
				}
				out[j][i] = s - shift[j]
			}
		}
	})
	return out
}

// centredTransTimes returns (X − 1·meanᵀ)ᵀ·u for the columns u (each of
// length n), as columns of length d. Columns are split among goroutines;
// each sums over the rows in order.
func (m *rowMatrix) centredTransTimes(ex tensor.Exec, u [][]float64, mean []float64) [][]float64 {
	out := make([][]float64, len(u))
	ex.For(len(u), len(m.val)*len(u), func(lo, hi int) {
		for j := lo; j < hi; j++ {
			o := make([]float64, m.d)
			var total float64
			for i := 0; i < m.n; i++ {
				a := u[j][i]
				total += a
				for e := m.ptr[i]; e < m.ptr[i+1]; e++ {
					o[m.col[e]] += m.val[e] * a
				}
			}
			for c := range o {
				o[c] -= mean[c] * total
			}
			out[j] = o
		}
	})
	return out
}
