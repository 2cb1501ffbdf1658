// Package tensor holds the float32 storage of the toolkit, dense row-major
// matrices ([Dense]) and compressed-sparse-row matrices ([CSR]), and the
// kernels that compute on them: dense products ([Gemm]), sparse × dense
// products ([SpMM], [SpMMT]), sampled dense-dense products on a sparsity
// pattern ([SDDMM]) and per-row softmax over the stored values of a sparse
// matrix ([RowSoftmax]).
//
// Every kernel is parallel over output rows through an [Exec] and each output
// element is computed by one goroutine with a fixed order of floating-point
// operations, so results are bit-for-bit identical whatever the number of
// goroutines. The sparse kernels are written by hand because no Go library
// offers float32 CSR products with int32 indices, cached transposes and
// deterministic parallelism.
//
// On amd64 CPUs with AVX2 and FMA the products run on the assembly tiles of
// internal/simd (about ten times gonum's pure-Go speed; see BENCHMARKS.md at
// the repository root); elsewhere, or when built with the purego tag, they
// run on portable Go loops. The choice is made once from the CPU's features
// and never changes while a program runs. The two paths round differently,
// so results agree to float32 precision between machines, and bit for bit
// between runs and thread counts on one machine.
package tensor
