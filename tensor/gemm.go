package tensor

import "fmt"

// Gemm computes c = alpha·op(a)·op(b) + beta·c, where op(x) is x or xᵀ as
// transA/transB say. It panics with both shapes if they do not fit.
// beta == 0 overwrites c (NaNs in c are not propagated).
func Gemm(e Exec, transA, transB bool, alpha float32, a, b *Dense, beta float32, c *Dense) {
	m, k := a.Rows, a.Cols
	if transA {
		m, k = k, m
	}
	kb, n := b.Rows, b.Cols
	if transB {
		kb, n = n, kb
	}
	if k != kb || c.Rows != m || c.Cols != n {
		panic(fmt.Sprintf("tensor: Gemm shape mismatch: op(a) %d×%d, op(b) %d×%d, c %s", m, k, kb, n, c.Shape()))
	}
	work := m * n * k
	e.For(m, work, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			ci := c.Data[i*n : (i+1)*n]
			scaleRow(ci, beta)
			switch {
			case !transA && !transB:
				ai := a.Data[i*k : (i+1)*k]
				for p, av := range ai {
					if av != 0 {
						axpy(alpha*av, b.Data[p*n:(p+1)*n], ci)
					}
				}
			case !transA && transB:
				ai := a.Data[i*k : (i+1)*k]
				for j := 0; j < n; j++ {
					ci[j] += alpha * dot(ai, b.Data[j*k:(j+1)*k])
				}
			case transA && !transB:
				for p := 0; p < k; p++ {
					if av := a.Data[p*m+i]; av != 0 {
						axpy(alpha*av, b.Data[p*n:(p+1)*n], ci)
					}
				}
			default:
				for j := 0; j < n; j++ {
					var s float32
					for p := 0; p < k; p++ {
						s += a.Data[p*m+i] * b.Data[j*k+p]
					}
					ci[j] += alpha * s
				}
			}
		}
	})
}

// scaleRow sets x = beta·x, writing zeros when beta == 0.
func scaleRow(x []float32, beta float32) {
	switch beta {
	case 0:
		clear(x)
	case 1:
	default:
		for i := range x {
			x[i] *= beta
		}
	}
}

// axpy computes y += alpha·x.
func axpy(alpha float32, x, y []float32) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += alpha * v
	}
}

// dot returns Σ x[i]·y[i].
func dot(x, y []float32) float32 {
	y = y[:len(x)]
	var s float32
	for i, v := range x {
		s += v * y[i]
	}
	return s
}
