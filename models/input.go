package models

import (
	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/nn"
)

// dropMatMul returns dropout(x)·w for dense or sparse x.
func dropMatMul(t *autograd.Tape, in nn.Input, w *autograd.Var, p float64) *autograd.Var {
	if in.Sparse != nil {
		return t.SpMM(t.DropoutCSR(in.Sparse, p), w)
	}
	return t.MatMul(t.Dropout(in.Dense, p), w)
}
