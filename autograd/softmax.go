package autograd

import "github.com/pcgcn/pcgcn/tensor"

// Softmax returns the row-wise softmax of x, computed stably (the row maximum
// is subtracted before exponentiating).
//
// Backward: ∂x[i,:] += out[i,:] ⊙ (∂out[i,:] − ⟨out[i,:], ∂out[i,:]⟩).
func (t *Tape) Softmax(x *Var) *Var {
	out := t.Alloc(x.Rows(), x.Cols())
	tensor.SoftmaxRows(t.Exec, x.Value, out)
	cols := x.Cols()
	return t.record(out, func(o *Var) {
		y, gy, gx := o.Value.Data, o.Grad.Data, t.grad(x).Data
		t.Exec.For(x.Rows(), 2*len(y), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				yi, gyi, gxi := y[i*cols:(i+1)*cols], gy[i*cols:(i+1)*cols], gx[i*cols:(i+1)*cols]
				var dot float32
				for j, v := range yi {
					dot += v * gyi[j]
				}
				for j, v := range yi {
					gxi[j] += v * (gyi[j] - dot)
				}
			}
		})
	}, x)
}
