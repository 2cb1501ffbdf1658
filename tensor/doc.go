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
package tensor
