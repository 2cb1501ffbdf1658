package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/tensor"
)

// SDDMM returns the nnz×1 sampled product on pattern: out[k] = ⟨a[i,:], b[j,:]⟩
// for every stored entry k = (i, j) (pattern's values are ignored).
//
// Backward: ∂a[i,:] += Σ_k ∂out[k]·b[j,:] (G·b with G the pattern holding
// ∂out), ∂b[j,:] += Σ_k ∂out[k]·a[i,:] (Gᵀ·a).
func (t *Tape) SDDMM(pattern *tensor.CSR, a, b *Var) *Var {
	if a.Rows() != pattern.Rows || b.Rows() != pattern.Cols || a.Cols() != b.Cols() {
		panic(fmt.Sprintf("autograd: SDDMM pattern %s, a %s, b %s", pattern.Shape(), a.label(), b.label()))
	}
	o := t.op(t.Alloc(pattern.NNZ(), 1), a, b)
	o.csr = pattern
	tensor.SDDMM(t.Exec, pattern, a.Value, b.Value, o.Value.Data)
	return t.done(o, sddmmBack)
}

func sddmmBack(o *Var) {
	t, a, b, pattern := o.tape, o.in[0], o.in[1], o.csr
	if a.requiresGrad {
		tensor.SpMM(t.Exec, 1, pattern.WithValuesInto(t.csrHeader(), o.Grad.Data), b.Value, 1, t.grad(a))
	}
	if b.requiresGrad {
		t.spmmTCols(t.columns(pattern), o.Grad.Data, a.Value, t.grad(b))
	}
}
