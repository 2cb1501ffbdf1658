package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

var (
	lossLabels = []int32{2, 0, 1, 2, 1, 0, 0}
	lossIdx    = []int32{1, 3, 4, 6, 3} // node 3 twice
)

func TestNLLLossGrad(t *testing.T) {
	check(t, "NLLLoss", func(tp *Tape, p []*Var) *Var { return tp.NLLLoss(p[0], lossLabels, lossIdx) }, testkit.RandDense(7, 3, 60))
	check(t, "NLLLoss∘LogSoftmax", func(tp *Tape, p []*Var) *Var {
		return tp.NLLLoss(tp.LogSoftmax(p[0]), lossLabels, lossIdx)
	}, testkit.RandDense(7, 3, 61))
}

func TestNLLLossValue(t *testing.T) {
	tp := NewTape(tensor.Serial)
	logp := NewParam("logp", tensor.FromRows([][]float32{{-1, -2}, {-3, -4}, {-5, -6}}))
	loss := tp.NLLLoss(logp, []int32{1, 0, 1}, []int32{0, 2})
	if got := loss.Scalar(); got != 4 { // (2 + 6)/2
		t.Errorf("NLLLoss = %v, want 4", got)
	}
	tp.Backward(loss)
	want := []float32{0, -0.5, 0, 0, 0, -0.5}
	for k, w := range want {
		if logp.Grad.Data[k] != w {
			t.Fatalf("∂logp = %v, want %v", logp.Grad.Data, want)
		}
	}
	if got := tp.NLLLoss(logp, []int32{1, 0, 1}, nil).Scalar(); got != 0 {
		t.Errorf("NLLLoss over no nodes = %v, want 0", got)
	}
}

func TestNLLLossBadLabelPanics(t *testing.T) {
	testkit.Panics(t, "label 3 of 2 classes", func() {
		tp := NewTape(tensor.Serial)
		tp.NLLLoss(tp.Const(testkit.RandDense(2, 2, 1)), []int32{0, 3}, []int32{1})
	})
}
