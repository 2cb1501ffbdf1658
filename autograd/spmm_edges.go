package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/tensor"
)

// SpMMEdges returns A·x where A has the sparsity pattern of pattern and the
// differentiable values vals (nnz×1, in the pattern's CSR order): propagation
// with learned edge weights such as attention coefficients. pattern's own
// values are ignored.
//
// Backward: ∂vals[k] += ⟨∂out[i,:], x[j,:]⟩ for entry k = (i, j) (an SDDMM on
// the pattern); ∂x += Aᵀ·∂out (computed through the tape's column index of the
// pattern, so a symmetric mark on pattern is not trusted for vals).
func (t *Tape) SpMMEdges(pattern *tensor.CSR, vals, x *Var) *Var {
	if vals.Rows() != pattern.NNZ() || vals.Cols() != 1 || pattern.Cols != x.Rows() {
		panic(fmt.Sprintf("autograd: SpMMEdges pattern %s, values %s, x %s", pattern.Shape(), vals.label(), x.label()))
	}
	o := t.op(t.Alloc(pattern.Rows, x.Cols()), vals, x)
	o.csr = pattern
	tensor.SpMM(t.Exec, 1, pattern.WithValuesInto(t.csrHeader(), vals.Value.Data), x.Value, 0, o.Value)
	return t.done(o, spmmEdgesBack)
}

func spmmEdgesBack(o *Var) {
	t, vals, x, pattern := o.tape, o.in[0], o.in[1], o.csr
	if vals.requiresGrad {
		tmp := t.Alloc(pattern.NNZ(), 1)
		tensor.SDDMM(t.Exec, pattern, o.Grad, x.Value, tmp.Data)
		t.reduceInto(bcSame, tmp, t.grad(vals), nil, 1)
	}
	if x.requiresGrad {
		t.spmmTCols(t.columns(pattern), vals.Value.Data, o.Grad, t.grad(x))
	}
}
