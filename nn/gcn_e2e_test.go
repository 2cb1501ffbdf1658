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
)

// toyGraph returns a homophilous graph of n nodes in 3 classes: each node
// links to 3 random nodes of its class and 1 of another. With sparse set the
// features are a 40-word bag of 3 words per node, each drawn from the
// class's block of words with probability 0.6 (stored CSR); otherwise they
// are 8 dense values, the one-hot label plus N(0, 0.8²) noise.
func toyGraph(t *testing.T, n int, sparse bool, seed uint64) *graph.Graph {
	t.Helper()
	const classes = 3
	g := rng.New(seed)
	y := make([]int32, n)
	byClass := make([][]int32, classes)
	for i := range y {
		y[i] = int32(i % classes)
		byClass[y[i]] = append(byClass[y[i]], int32(i))
	}
	var edges []graph.Edge
	for i := 0; i < n; i++ {
		same := byClass[y[i]]
		for k := 0; k < 3; k++ {
			edges = append(edges, graph.Edge{int32(i), same[g.IntN(len(same))]})
		}
		edges = append(edges, graph.Edge{int32(i), int32(g.IntN(n))})
	}
	adj, err := graph.UndirectedAdjacency(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	var x *tensor.Dense
	if sparse {
		const words, block = 40, 10
		x = tensor.NewDense(n, words)
		for i := 0; i < n; i++ {
			for k := 0; k < 3; k++ {
				w := g.IntN(words)
				if g.Float64() < 0.6 {
					w = int(y[i])*block + g.IntN(block)
				}
				x.Set(i, w, 1)
			}
		}
	} else {
		x = tensor.NewDense(n, 8)
		for i := 0; i < n; i++ {
			for j := 0; j < 8; j++ {
				x.Set(i, j, float32(0.8*g.NormFloat64()))
			}
			x.Set(i, int(y[i]), x.At(i, int(y[i]))+1)
		}
	}
	gr := &graph.Graph{Name: "toy", N: n, Adj: adj, X: graph.NewFeatures(x), Y: y, NumClasses: classes}
	var train []int32
	for i := 0; i < n; i += 2 {
		train = append(train, int32(i))
	}
	gr.Splits = []graph.Split{{Train: train, Val: []int32{1}, Test: []int32{3}}}
	if err := gr.Validate(); err != nil {
		t.Fatal(err)
	}
	return gr
}

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
			gr := toyGraph(t, 60, tc.sparse, 11)
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
