package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestCrossEntropyGrad(t *testing.T) {
	check(t, "CrossEntropy", func(tp *Tape, p []*Var) *Var { return tp.CrossEntropy(p[0], lossLabels, lossIdx) }, testkit.RandDense(7, 3, 62))
	check(t, "CrossEntropy 1 class", func(tp *Tape, p []*Var) *Var {
		return tp.Add(tp.CrossEntropy(p[0], []int32{0, 0}, []int32{1}), tp.Sum(p[0]))
	}, testkit.RandDense(2, 1, 63))
}

// TestCrossEntropyMatchesUnfused compares the fused loss and its gradient with
// NLLLoss(LogSoftmax(x)), including huge logits.
func TestCrossEntropyMatchesUnfused(t *testing.T) {
	x := testkit.RandDense(7, 3, 64)
	x.Data[3] = 1e4
	a, b := NewParam("a", x.Clone()), NewParam("b", x.Clone())
	tp := NewTape(tensor.Serial)
	la := tp.CrossEntropy(a, lossLabels, lossIdx)
	lb := tp.NLLLoss(tp.LogSoftmax(b), lossLabels, lossIdx)
	if !testkit.Near(la.Scalar(), lb.Scalar(), 1e-3) {
		t.Errorf("fused %v, unfused %v", la.Scalar(), lb.Scalar())
	}
	tp.Backward(tp.Add(la, lb))
	for k := range a.Grad.Data {
		if !testkit.Near(a.Grad.Data[k], b.Grad.Data[k], 1e-6) {
			t.Fatalf("∂x[%d]: fused %v, unfused %v", k, a.Grad.Data[k], b.Grad.Data[k])
		}
	}
}

// The gradient of a large CrossEntropy is the same bits on 1 and 3
// goroutines, with sorted rows (shared among them) and with a row named
// twice (kept serial, both terms added).
func TestCrossEntropyBackwardThreads(t *testing.T) {
	const rows, cols = 3000, 5
	x := testkit.RandDense(rows, cols, 65)
	labels := make([]int32, rows)
	for i := range labels {
		labels[i] = int32(i % cols)
	}
	sorted := make([]int32, 0, rows)
	for i := 0; i < rows; i += 2 {
		sorted = append(sorted, int32(i))
	}
	repeated := append([]int32{4}, sorted...)
	for name, idx := range map[string][]int32{"sorted": sorted, "repeated": repeated} {
		var first []float32
		for _, threads := range []int{1, 3} {
			p := NewParam("x", x.Clone())
			tp := NewTape(tensor.Exec{Threads: threads})
			tp.Backward(tp.CrossEntropy(p, labels, idx))
			if first == nil {
				first = p.Grad.Data
				continue
			}
			for k, v := range p.Grad.Data {
				if v != first[k] {
					t.Fatalf("%s: ∂x[%d] %v on 3 goroutines, %v on 1", name, k, v, first[k])
				}
			}
		}
		if name == "repeated" {
			// row 4 is selected twice: its gradient is twice that of one
			// selection, the sorted run's, rescaled to the longer mean
			one := NewParam("x", x.Clone())
			tp := NewTape(tensor.Serial)
			tp.Backward(tp.CrossEntropy(one, labels, sorted))
			scale := float32(len(sorted)) / float32(len(repeated))
			for j := 0; j < cols; j++ {
				want := 2 * one.Grad.At(4, j) * scale
				if !testkit.Near(first[4*cols+j], want, 1e-6) {
					t.Errorf("row named twice: ∂x[4,%d] = %v, want %v", j, first[4*cols+j], want)
				}
			}
		}
	}
}
