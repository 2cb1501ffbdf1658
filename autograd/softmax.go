package autograd

import (
	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

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
	cols := o.Value.Cols
	e0, e1 := lo*cols, hi*cols
	softmaxBackSpan(cols, o.Value.Data[e0:e1], o.Grad.Data[e0:e1], o.in[0].Grad.Data[e0:e1])
}

// softmaxBackSpan adds each row's y ⊙ (gy − ⟨y, gy⟩) into gx, rows of cols
// elements: Softmax's backward loop, shared with SoftmaxSTE (kept out of
// line so that both run the same compiled operations).
//
//go:noinline
func softmaxBackSpan(cols int, y, gy, gx []float32) {
	if simd.Enabled() && !goFusesFMA && cols <= 8 {
		// the loop below, a masked vector a row (TestSoftmaxBackRowsMatchesGo)
		simd.SoftmaxBackRows(y, gy, gx, cols)
		return
	}
	softmaxBackSpanGo(cols, y, gy, gx)
}

// softmaxBackSpanGo is softmaxBackSpan's Go loop.
//
//go:noinline
func softmaxBackSpanGo(cols int, y, gy, gx []float32) {
	for i := 0; i*cols < len(y); i++ {
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
