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
	vals := t.Alloc(x.NNZ(), 1).Data
	if p == 1 {
		clear(vals)
		return x.WithValues(vals)
	}
	m := t.newMask(p)
	t.Exec.For(len(vals), 4*len(vals), func(lo, hi int) { m.applyRange(x.Val, vals, lo, hi, false) })
	return x.WithValues(vals)
}
