package nn

import (
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/tensor"
)

// Normalisation kinds of Norm (the `norm` option of the classic baselines).
const (
	NormNone  = "none"
	NormLayer = "layer"
	NormBatch = "batch"
)

// Norm is a normalisation with a learnable affine part, γ ⊙ x̂ + β (γ 1×d,
// named "<name>.weight", starting at 1; β 1×d, "<name>.bias", at 0), where x̂
// is x standardised by rows (NormLayer: torch.nn.LayerNorm(d), eps 1e-5) or
// by columns (NormBatch: torch.nn.BatchNorm1d(d), eps 1e-5, with the batch
// statistics in training and evaluation alike: autograd.BatchNorm keeps no
// running statistics; full batch, the evaluation pass sees the same nodes
// as training, so the two differ only by the dropout of the input). A nil
// *Norm (NewNorm of NormNone) is the identity.
type Norm struct {
	// Kind is NormLayer or NormBatch.
	Kind string
	// Weight is γ, Bias is β.
	Weight, Bias *autograd.Var
}

// NewNorm returns a normalisation of d features of the given kind, or nil
// for NormNone and "". It panics on another kind (the models validate it).
func NewNorm(name, kind string, d int) *Norm {
	switch kind {
	case "", NormNone:
		return nil
	case NormLayer, NormBatch:
	default:
		panic(fmt.Sprintf("nn: NewNorm %q of unknown kind %q", name, kind))
	}
	w := tensor.NewDense(1, d)
	for i := range w.Data {
		w.Data[i] = 1
	}
	return &Norm{
		Kind:   kind,
		Weight: autograd.NewParam(name+".weight", w),
		Bias:   autograd.NewParam(name+".bias", tensor.NewDense(1, d)),
	}
}

// Params returns γ and β (none for the identity).
func (n *Norm) Params() []*autograd.Var {
	if n == nil {
		return nil
	}
	return []*autograd.Var{n.Weight, n.Bias}
}

// Forward returns γ ⊙ x̂ + β, or x itself for the identity.
func (n *Norm) Forward(t *autograd.Tape, x *autograd.Var) *autograd.Var {
	if n == nil {
		return x
	}
	var h *autograd.Var
	if n.Kind == NormBatch {
		h = t.BatchNorm(x, 1e-5)
	} else {
		h = t.LayerNorm(x, 1e-5)
	}
	return t.Add(t.Mul(h, n.Weight), n.Bias)
}
