package tensor

// Epilogue is element-wise work on c that GemmEpilogue does right after
// the product: F(Arg, i0, i1, j0, j1) on the block c[i0:i1, j0:j1], called
// once for every element of c, from any goroutine, on disjoint blocks. A
// bias added to the product (nn.Linear's) is one: through the cache-blocked
// tiles each block gets it while its rows are still in cache, where a pass
// of its own read the whole product back from memory and wrote it again.
// F and Arg are a function and its argument rather than a closure so that a
// call allocates nothing (as Exec.ForArg's).
type Epilogue struct {
	F   func(arg any, i0, i1, j0, j1 int)
	Arg any
	n   int // c's columns, for the pass over whole rows
}

// GemmEpilogue is Gemm, c = alpha·op(a)·op(b) + beta·c, followed by epi on
// every element of c. The cache-blocked tiles run epi on each block of c as
// soon as the block's last inner block is added; the other paths (split
// inner dimension, small k, sparse left operand, portable loops) form c
// first and then run epi over its rows in a pass of their own, in parallel
// as e says. Either way c's elements are Gemm's before epi sees them, so
// an element-wise epi gives the same bits as Gemm followed by that work.
func GemmEpilogue(e Exec, transA, transB bool, alpha float32, a, b *Dense, beta float32, c *Dense, epi *Epilogue) {
	kd := gemmKernel("GemmEpilogue", transA, transB, alpha, a, b, beta, c)
	kd.epi = epi
	if gemm(e, kd) {
		return
	}
	epi.n = kd.n
	e.ForArg(kd.m, kd.m*kd.n, epi, epilogueRows)
}

// epilogueRows runs an Epilogue on whole rows [lo, hi) of c.
func epilogueRows(arg any, lo, hi int) {
	epi := arg.(*Epilogue)
	epi.F(epi.Arg, lo, hi, 0, epi.n)
}
