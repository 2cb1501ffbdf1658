package nn_test

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/optim"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit/graphtest"
)

// gcn is the 2-layer GCN of Kipf & Welling, a stack of two GCNConv:
// Â·ReLU(Â·X·W1 + b1)·W2 + b2.
type gcn []*nn.GCNConv

func newGCN(a *tensor.CSR, in, hidden, out int, g *rng.RNG) gcn {
	return nn.NewStack("gcn", in, hidden, out, 2, func(name string, in, out int) *nn.GCNConv {
		return nn.NewGCNConv(name, a, in, out, g)
	})
}

func (m gcn) Params() []*autograd.Var { return nn.ParamsOf(m) }

func (m gcn) forward(t *autograd.Tape, x nn.Input, dropout float64) *autograd.Var {
	out, _ := nn.Stack(t, m, x, dropout, t.ReLU)
	return out
}

// trainResult is what a run reports.
type trainResult struct {
	initialLoss, finalLoss, trainAcc float64
}

func trainGCN(t *testing.T, gr *graph.Graph, dropout float64, threads int, seed uint64) trainResult {
	t.Helper()
	a := gr.AHat()
	g := rng.New(seed)
	model := newGCN(a, gr.X.Cols(), 16, gr.NumClasses, g.Child())
	opt := optim.NewAdam(model.Params(), 0.02, 5e-4)
	tp := autograd.NewTape(tensor.Exec{Threads: threads})
	tp.RNG = g.Child()
	train := gr.Splits[0].Train
	var res trainResult
	for epoch := 0; epoch < 100; epoch++ {
		tp.Reset()
		tp.Training = true
		opt.ZeroGrad()
		loss := tp.CrossEntropy(model.forward(tp, nn.InputFromFeatures(tp, gr.X), dropout), gr.Y, train)
		if epoch == 0 {
			res.initialLoss = float64(loss.Scalar())
		}
		tp.Backward(loss)
		opt.Step()
	}
	tp.Reset()
	tp.Training = false
	tp.SetNoGrad(true)
	logits := model.forward(tp, nn.InputFromFeatures(tp, gr.X), dropout)
	res.finalLoss = float64(tp.CrossEntropy(logits, gr.Y, train).Scalar())
	correct := 0
	for _, i := range train {
		row := logits.Value.Row(int(i))
		best := 0
		for c := range row {
			if row[c] > row[best] {
				best = c
			}
		}
		if int32(best) == gr.Y[i] {
			correct++
		}
	}
	res.trainAcc = float64(correct) / float64(len(train))
	return res
}

func TestGCNTrainsEndToEnd(t *testing.T) {
	for _, tc := range []struct {
		name    string
		sparse  bool
		dropout float64
	}{{"dense", false, 0}, {"sparse-dropout", true, 0.5}} {
		t.Run(tc.name, func(t *testing.T) {
			gr := graphtest.Toy(t, 60, tc.sparse, 11)
			if (gr.X.Sparse != nil) != tc.sparse {
				t.Fatalf("features stored sparse=%v, want %v", gr.X.Sparse != nil, tc.sparse)
			}
			res := trainGCN(t, gr, tc.dropout, 1, 5)
			t.Logf("loss %.4f → %.4f, train accuracy %.3f", res.initialLoss, res.finalLoss, res.trainAcc)
			if math.Abs(res.initialLoss-math.Log(3)) > 0.3 {
				t.Errorf("initial loss %.4f, want about ln 3", res.initialLoss)
			}
			if res.finalLoss > 0.5*res.initialLoss {
				t.Errorf("final loss %.4f not below half the initial %.4f", res.finalLoss, res.initialLoss)
			}
			if res.trainAcc < 0.9 {
				t.Errorf("train accuracy %.3f, want ≥ 0.9", res.trainAcc)
			}
			// same seed, same numbers, whatever the goroutine count
			if again := trainGCN(t, gr, tc.dropout, 2, 5); again != res {
				t.Errorf("2 threads gave %+v, 1 thread %+v", again, res)
			}
		})
	}
}
