package nn

import (
	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/tensor"
)

// Input is what a first layer reads: either a dense variable (which may carry
// gradient, e.g. the output of another layer) or a constant sparse matrix
// (bag-of-words node features kept in CSR). Exactly one field is set.
//
// It is a struct rather than an interface so that it mirrors graph.Features
// and a layer can branch on it without type switches; the sparse side is a
// plain *tensor.CSR because no gradient ever flows into input features.
type Input struct {
	Dense  *autograd.Var
	Sparse *tensor.CSR
}

// DenseInput wraps a dense variable.
func DenseInput(x *autograd.Var) Input { return Input{Dense: x} }

// SparseInput wraps constant sparse features. A matrix marked symmetric (an
// adjacency used as features) is safe under dropout: the dropped copy made by
// Tape.DropoutCSR is not marked, so SpMM's backward uses the true transpose.
func SparseInput(x *tensor.CSR) Input { return Input{Sparse: x} }

// InputFromFeatures returns the input for node features f: sparse features
// stay sparse, dense ones become a constant of t.
func InputFromFeatures(t *autograd.Tape, f graph.Features) Input {
	if f.Sparse != nil {
		return SparseInput(f.Sparse)
	}
	return Input{Dense: t.Const(f.Dense)}
}

// Rows returns the number of input rows (nodes).
func (in Input) Rows() int {
	if in.Sparse != nil {
		return in.Sparse.Rows
	}
	return in.Dense.Rows()
}

// Cols returns the input dimension.
func (in Input) Cols() int {
	if in.Sparse != nil {
		return in.Sparse.Cols
	}
	return in.Dense.Cols()
}

// Dropout returns the input with dropout p applied (a no-op unless
// t.Training and p > 0): to the dense values, or to the stored values of a
// sparse matrix, which stays sparse (the dropped copy of a matrix marked
// symmetric is not marked, so a product's backward uses the true transpose).
func (in Input) Dropout(t *autograd.Tape, p float64) Input {
	if in.Sparse != nil {
		return Input{Sparse: t.DropoutCSR(in.Sparse, p)}
	}
	return Input{Dense: t.Dropout(in.Dense, p)}
}

// MatMul returns in·w: a dense product, or a sparse one (SpMM) that never
// densifies the input. It panics unless exactly one field of in is set.
func (in Input) MatMul(t *autograd.Tape, w *autograd.Var) *autograd.Var {
	if !in.valid() {
		panic("nn: Input.MatMul needs exactly one of Input.Dense and Input.Sparse")
	}
	if in.Sparse != nil {
		return t.SpMM(in.Sparse, w)
	}
	return t.MatMul(in.Dense, w)
}

// valid reports whether exactly one field is set.
func (in Input) valid() bool { return (in.Dense == nil) != (in.Sparse == nil) }
