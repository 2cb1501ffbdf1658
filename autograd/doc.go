// Package autograd is the reverse-mode automatic differentiation of the
// toolkit: a [Tape] records the differentiable operations of one forward pass
// and [Tape.Backward] runs them backwards.
//
// It is written by hand, not taken from a library, because the models here
// need sparse graph operations (products with a fixed or learned sparse
// adjacency, edge softmax, sampled dense-dense products) next to dense ones,
// in float32, with deterministic parallel kernels and buffers recycled across
// epochs so that steady-state training does not allocate large arrays; no Go
// autodiff library offers that combination.
//
// Layout follows spago: one file per differentiable operation, its forward and
// backward side by side, each with its own finite-difference gradient check.
// The operations are:
//
//   - dense products: MatMul (a·b), MatMulNT (a·bᵀ), Gram (xᵀx), MatInverse;
//   - sparse: SpMM (fixed sparse · dense), SpMMEdges (sparse with learned
//     values · dense), SpMMEdgesHeads (the same for several attention
//     heads), SDDMM, EdgeGatherAdd, EdgeSoftmax;
//   - element-wise: Add, Sub, Mul (with row, column and scalar broadcasting,
//     broadcast.go), AddScaled (ca·a + cb·b), Scale, AddConst, Neg, ReLU,
//     LeakyReLU, ELU, GELU, Sigmoid, Softplus, Tanh, and the fused PCGCN update
//     ReLUAddScaledSub (ReLU(x + c·((a − b) ⊙ m)), with the rounding of the
//     chain it replaces) and its similarity mix AlphaMix (a·b + (1−a)·(x − b),
//     likewise);
//   - rows: Softmax, LogSoftmax, L2NormalizeRows, BatchNorm (batch
//     statistics), LayerNorm (row statistics; both without an affine
//     part, which nn.Norm adds); losses NLLLoss, CrossEntropy,
//     BCEWithLogits;
//   - Dropout and DropoutCSR (counter-based masks, identical for any thread
//     count);
//   - shape: Gather, SegmentMean, SegmentMeanRows (SegmentMean of gathered
//     rows, without the gathered matrix), ConcatCols, SliceCols, Sum, Mean,
//     SumRows;
//   - gradient control: STE, StopGrad, OneHotArgmax and OneHotArgmaxIndex
//     (constants).
//
// Besides the operations: the tape's own file (Alloc, AllocZero, Const,
// CSRWithValues, Release, ReleaseDead, Reset, PeakBytes, Backward), var.go (the Var),
// col_index.go (the column index behind the transposed sparse products) and
// gradcheck.go (GradCheck, the finite-difference checker of every op test).
//
// Operations are methods of a Tape: t.MatMul(x, w), t.ReLU(h), ... The values
// and gradients of intermediate variables live in buffers owned by the tape
// and are recycled by [Tape.Reset]; copy out what must outlive the pass.
// Parameters ([NewParam]) own their value and gradient and live across tapes.
//
// Every kernel gives each output element to one goroutine with a fixed order
// of operations, so values and gradients are bit-identical for any
// [tensor.Exec] thread count.
package autograd
