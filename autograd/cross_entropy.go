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
	// the output's aux keeps each selected row's logsumexp for backward
	o := t.op(t.Alloc(1, 1), logits, nil)
	o.aux, o.idx, o.lab = t.Alloc(len(idx), 1), idx, labels
	t.Exec.ForArg(len(idx), 8*len(idx)*cols, o, crossEntropyLSE)
	xd := logits.Value.Data
	var s float64
	for q, i := range idx {
		s += float64(o.aux.Data[q]) - float64(xd[int(i)*cols+int(labels[i])])
	}
	o.Value.Data[0] = float32(s * meanScale(len(idx)))
	return t.done(o, crossEntropyBack)
}

// crossEntropyLSE computes the logsumexp of the selected rows [lo, hi).
func crossEntropyLSE(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, xd := o.in[0].Value.Cols, o.in[0].Value.Data
	if ceVector(cols) {
		crossEntropyLSEVector(o, lo, hi)
		return
	}
	for q := lo; q < hi; q++ {
		i := int(o.idx[q])
		o.aux.Data[q] = float32(logSumExp(xd[i*cols : (i+1)*cols]))
	}
}

func crossEntropyBack(o *Var) {
	o.tape.grad(o.in[0])
	if increasing(o.idx) {
		// distinct rows: shared among the goroutines
		cols := o.in[0].Value.Cols
		o.tape.Exec.ForArg(len(o.idx), 8*len(o.idx)*cols, o, crossEntropyBackRows)
		return
	}
	// serial: idx may repeat a node
	crossEntropyBackRows(o, 0, len(o.idx))
}

// crossEntropyBackRows adds the gradient of the selected rows [lo, hi).
func crossEntropyBackRows(arg any, lo, hi int) {
	o := arg.(*Var)
	logits := o.in[0]
	cols, xd := logits.Value.Cols, logits.Value.Data
	g := o.Grad.Data[0] * float32(meanScale(len(o.idx)))
	gx := logits.Grad.Data
	if ceVector(cols) {
		crossEntropyBackVector(o, g, lo, hi)
		return
	}
	for q := lo; q < hi; q++ {
		i := o.idx[q]
		row, gr := xd[int(i)*cols:(int(i)+1)*cols], gx[int(i)*cols:(int(i)+1)*cols]
		for j, v := range row {
			gr[j] += g * float32(math.Exp(float64(v-o.aux.Data[q])))
		}
		gr[o.lab[i]] -= g
	}
}

// increasing reports whether idx is strictly increasing, so names no row
// twice (training node lists are sorted).
func increasing(idx []int32) bool {
	for q := 1; q < len(idx); q++ {
		if idx[q] <= idx[q-1] {
			return false
		}
	}
	return true
}
