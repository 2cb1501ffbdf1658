package tensor

// gemmPortableRows is the pure-Go Gemm used without vector support, on rows
// [lo, hi) of c: row i of c is scaled by beta, then receives
// alpha·op(a)[i,p]·op(b)[p,:] for p in order (or dot products for the a·bᵀ
// forms), by the goroutine that owns row i.
func gemmPortableRows(kd *kernel, lo, hi int) {
	transA, transB, alpha, a, b, beta, c, m, n, k := kd.transA, kd.transB, kd.alpha, kd.a, kd.b, kd.beta, kd.c, kd.m, kd.n, kd.k
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
