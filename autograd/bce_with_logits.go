package autograd

import (
	"fmt"
	"math"
)

// BCEWithLogits returns the 1×1 mean over i in idx of the binary cross-entropy
// of the n×1 logits z against labels[i] ∈ {0, 1}: max(z,0) − z·y +
// log(1 + e^−|z|), which is stable for any z.
//
// Backward: ∂z[i] += ∂out/len(idx)·(σ(z[i]) − y[i]) for each i in idx.
func (t *Tape) BCEWithLogits(logits *Var, labels []int32, idx []int32) *Var {
	if logits.Cols() != 1 {
		panic(fmt.Sprintf("autograd: BCEWithLogits wants n×1 logits, got %s", logits.label()))
	}
	for _, i := range idx {
		if i < 0 || int(i) >= logits.Rows() || int(i) >= len(labels) || labels[i] < 0 || labels[i] > 1 {
			panic(fmt.Sprintf("autograd: BCEWithLogits: node %d outside %s or label not 0/1", i, logits.label()))
		}
	}
	z := logits.Value.Data
	var s float64
	for _, i := range idx {
		v, y := float64(z[i]), float64(labels[i])
		s += math.Max(v, 0) - v*y + math.Log1p(math.Exp(-math.Abs(v)))
	}
	o := t.op(t.Alloc(1, 1), logits, nil)
	o.idx, o.lab, o.s = idx, labels, meanScale(len(idx))
	o.Value.Data[0] = float32(s * o.s)
	return t.done(o, bceWithLogitsBack)
}

func bceWithLogitsBack(o *Var) {
	logits := o.in[0]
	g := o.Grad.Data[0] * float32(o.s)
	z, gz := logits.Value.Data, o.tape.grad(logits).Data
	for _, i := range o.idx {
		gz[i] += g * (sigmoid(z[i]) - float32(o.lab[i]))
	}
}
