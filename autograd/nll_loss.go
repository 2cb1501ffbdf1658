package autograd

import "fmt"

// NLLLoss returns the 1×1 mean over the nodes i in idx of −logp[i, labels[i]]
// (labels is indexed by node; idx may repeat a node, which then counts twice).
// An empty idx gives 0.
//
// Backward: ∂logp[i, labels[i]] −= ∂out/len(idx) for each i in idx.
func (t *Tape) NLLLoss(logp *Var, labels []int32, idx []int32) *Var {
	cols := logp.Cols()
	checkLabels("NLLLoss", logp, labels, idx)
	o := t.op(t.Alloc(1, 1), logp, nil)
	o.idx, o.lab, o.s = idx, labels, meanScale(len(idx))
	var s float64
	for _, i := range idx {
		s -= float64(logp.Value.Data[int(i)*cols+int(labels[i])])
	}
	o.Value.Data[0] = float32(s * o.s)
	return t.done(o, nllLossBack)
}

func nllLossBack(o *Var) {
	logp := o.in[0]
	cols := logp.Value.Cols
	g := o.Grad.Data[0] * float32(o.s)
	gx := o.tape.grad(logp).Data
	for _, i := range o.idx {
		gx[int(i)*cols+int(o.lab[i])] -= g
	}
}

// meanScale is 1/n, or 0 for n == 0.
func meanScale(n int) float64 {
	if n == 0 {
		return 0
	}
	return 1 / float64(n)
}

// checkLabels panics unless every node in idx is a row of x with a label in
// [0, x.Cols()).
func checkLabels(op string, x *Var, labels, idx []int32) {
	for _, i := range idx {
		if i < 0 || int(i) >= x.Rows() || int(i) >= len(labels) {
			panic(fmt.Sprintf("autograd: %s: node %d outside %s with %d labels", op, i, x.label(), len(labels)))
		}
		if l := labels[i]; l < 0 || int(l) >= x.Cols() {
			panic(fmt.Sprintf("autograd: %s: node %d has label %d, want [0,%d)", op, i, l, x.Cols()))
		}
	}
}
