package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/tensor"
)

// DropoutCSR is Dropout for a constant sparse matrix (sparse input features):
// it returns x itself when the tape is not training or p == 0, and otherwise
// x.WithValues(v) where each stored value is zeroed with probability p and the
// kept ones scaled by 1/(1−p). Only stored entries are drawn: the implicit
// zeros would stay zero anyway, so this is the distribution of dense dropout
// on the same matrix. The values live in a tape buffer, valid until Reset.
// The result shares x's pattern (and its cached transpose) but, having new
// values, is not marked symmetric even when x is.
func (t *Tape) DropoutCSR(x *tensor.CSR, p float64) *tensor.CSR {
	if p < 0 || p > 1 {
		panic(fmt.Sprintf("autograd: DropoutCSR probability %g outside [0,1]", p))
	}
	if !t.Training || p == 0 {
		return x
	}
	// a tape Var carries the mask and the values to the loop (no closure)
	o := t.newVar(t.Alloc(x.NNZ(), 1))
	vals := o.Value.Data
	if p == 1 {
		clear(vals)
		return x.WithValuesInto(t.csrHeader(), vals)
	}
	o.mask, o.csr = t.newMask(p), x
	t.Exec.ForArg(len(vals), 4*len(vals), o, dropoutCSRValues)
	return x.WithValuesInto(t.csrHeader(), vals)
}

func dropoutCSRValues(arg any, lo, hi int) {
	o := arg.(*Var)
	o.mask.applyRange(o.csr.Val, o.Value.Data, lo, hi, false)
}
