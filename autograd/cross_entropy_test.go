package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

func TestCrossEntropyGrad(t *testing.T) {
	check(t, "CrossEntropy", func(tp *Tape, p []*Var) *Var { return tp.CrossEntropy(p[0], lossLabels, lossIdx) }, randDense(7, 3, 62))
	check(t, "CrossEntropy 1 class", func(tp *Tape, p []*Var) *Var {
		return tp.Add(tp.CrossEntropy(p[0], []int32{0, 0}, []int32{1}), tp.Sum(p[0]))
	}, randDense(2, 1, 63))
}

// TestCrossEntropyMatchesUnfused compares the fused loss and its gradient with
// NLLLoss(LogSoftmax(x)), including huge logits.
func TestCrossEntropyMatchesUnfused(t *testing.T) {
	x := randDense(7, 3, 64)
	x.Data[3] = 1e4
	a, b := NewParam("a", x.Clone()), NewParam("b", x.Clone())
	tp := NewTape(tensor.Serial)
	la := tp.CrossEntropy(a, lossLabels, lossIdx)
	lb := tp.NLLLoss(tp.LogSoftmax(b), lossLabels, lossIdx)
	if !near(la.Scalar(), lb.Scalar(), 1e-3) {
		t.Errorf("fused %v, unfused %v", la.Scalar(), lb.Scalar())
	}
	tp.Backward(tp.Add(la, lb))
	for k := range a.Grad.Data {
		if !near(a.Grad.Data[k], b.Grad.Data[k], 1e-6) {
			t.Fatalf("∂x[%d]: fused %v, unfused %v", k, a.Grad.Data[k], b.Grad.Data[k])
		}
	}
}
