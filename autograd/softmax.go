package autograd

import "github.com/pcgcn/pcgcn/tensor"

// Softmax returns the row-wise softmax of x, computed stably (the row maximum
// is subtracted before exponentiating).
//
// Backward: ∂x[i,:] += out[i,:] ⊙ (∂out[i,:] − ⟨out[i,:], ∂out[i,:]⟩).
func (t *Tape) Softmax(x *Var) *Var {
	o := t.op(t.Alloc(x.Rows(), x.Cols()), x, nil)
	tensor.SoftmaxRows(t.Exec, x.Value, o.Value)
	return t.done(o, softmaxBack)
}

func softmaxBack(o *Var) {
	o.tape.grad(o.in[0])
	o.tape.Exec.ForArg(o.Value.Rows, 2*o.Value.Len(), o, softmaxBackRows)
}

func softmaxBackRows(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, y, gy, gx := o.Value.Cols, o.Value.Data, o.Grad.Data, o.in[0].Grad.Data
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
}
