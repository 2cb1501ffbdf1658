package autograd

import "math"

// CrossEntropy returns NLLLoss(LogSoftmax(logits), labels, idx), fused: the
// 1×1 mean over i in idx of logsumexp(logits[i,:]) − logits[i, labels[i]].
// Only the rows in idx are computed.
//
// Backward: ∂logits[i,:] += ∂out/len(idx)·(softmax(logits[i,:]) − onehot(labels[i]))
// for each i in idx.
func (t *Tape) CrossEntropy(logits *Var, labels []int32, idx []int32) *Var {
	cols := logits.Cols()
	checkLabels("CrossEntropy", logits, labels, idx)
	xd := logits.Value.Data
	lse := t.Alloc(len(idx), 1) // logsumexp of each selected row, kept for backward
	t.Exec.For(len(idx), 8*len(idx)*cols, func(lo, hi int) {
		for q := lo; q < hi; q++ {
			i := int(idx[q])
			lse.Data[q] = float32(logSumExp(xd[i*cols : (i+1)*cols]))
		}
	})
	var s float64
	for q, i := range idx {
		s += float64(lse.Data[q]) - float64(xd[int(i)*cols+int(labels[i])])
	}
	scale := meanScale(len(idx))
	out := t.Alloc(1, 1)
	out.Data[0] = float32(s * scale)
	return t.record(out, func(o *Var) {
		g := o.Grad.Data[0] * float32(scale)
		gx := t.grad(logits).Data
		// serial: idx may repeat a node
		for q, i := range idx {
			row, gr := xd[int(i)*cols:(int(i)+1)*cols], gx[int(i)*cols:(int(i)+1)*cols]
			for j, v := range row {
				gr[j] += g * float32(math.Exp(float64(v-lse.Data[q])))
			}
			gr[labels[i]] -= g
		}
	}, logits)
}
