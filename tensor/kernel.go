package tensor

// kernel holds the operands of one call of a kernel of this package. The
// kernels' parallel loops hand this struct, not a closure capturing the
// operands, to the goroutines; with Workers the struct lives in the Workers
// (one kernel call at a time), so a kernel call allocates nothing. Each
// kernel uses the fields it needs.
type kernel struct {
	transA, transB bool
	alpha, beta    float32
	a, b, c        *Dense
	m, n, k        int
	k0             int // first inner index of gemmSplitK's group
	rowPtr, colIdx []int32
	perm           []int32
	order          []int32 // rows in the order spmmNarrow takes them
	val, out       []float32
	pattern        *CSR
	epi            *Epilogue // GemmEpilogue's work on each finished block of c
}

// kernelBody computes the part [lo, hi) of a kernel's index range.
type kernelBody func(kd *kernel, lo, hi int)

// runKernel runs body over [0, n) in parallel pieces (equal, or balanced by
// prefix) with the operands kd, which runPieces copies where the goroutines
// can reach them. Kernels call it only after Exec.Serial said no, and call
// their body directly with &kd otherwise, so that kd stays on their stack.
func (e Exec) runKernel(n int, prefix []int32, kd kernel, body kernelBody) {
	e.runPieces(n, prefix, job{kb: body}, kd)
}

// runKernelMin is runKernel over pieces of at least minLen items where that
// still leaves one piece per goroutine (see runPiecesMin).
func (e Exec) runKernelMin(n, minLen int, kd kernel, body kernelBody) {
	e.runPiecesMin(n, minLen, nil, job{kb: body}, kd)
}
