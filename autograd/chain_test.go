package autograd

import (
	"math"

	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// testGraph is a random graph-sized problem for the chain tests: big enough
// that the kernels run in parallel when the tape has several threads.
type testGraph struct {
	adj    *tensor.CSR // symmetric normalised adjacency with self-loops, marked symmetric
	x      *tensor.CSR // sparse features
	labels []int32
	train  []int32
	seg    []int32 // labels on train nodes, −1 elsewhere
	params []*Var  // w1, aSrc, aDst, w2, bias, scalar
}

const chainClasses = 5

func newTestGraph(n, feats, hidden int, seed uint64) *testGraph {
	g := rng.New(seed)
	var ts []tensor.Triplet
	for i := 0; i < n; i++ {
		ts = append(ts, tensor.Triplet{Row: int32(i), Col: int32(i), Val: 1})
		for e := 0; e < 4; e++ {
			j := int32(g.IntN(n))
			ts = append(ts, tensor.Triplet{Row: int32(i), Col: j, Val: 1}, tensor.Triplet{Row: j, Col: int32(i), Val: 1})
		}
	}
	adj := tensor.FromTriplets(n, n, ts)
	for k := range adj.Val { // duplicates were summed: back to 0/1, then row-normalise symmetrically
		adj.Val[k] = 1
	}
	deg := make([]float32, n)
	for i := 0; i < n; i++ {
		deg[i] = float32(adj.RowPtr[i+1] - adj.RowPtr[i])
	}
	for i := 0; i < n; i++ {
		for k := adj.RowPtr[i]; k < adj.RowPtr[i+1]; k++ {
			adj.Val[k] = 1 / float32(math.Sqrt(float64(deg[i]*deg[adj.ColIdx[k]])))
		}
	}
	adj.MarkSymmetric()
	tg := &testGraph{adj: adj, x: testkit.RandCSR(n, feats, 0.05, seed+1)}
	for i := 0; i < n; i++ {
		l := int32(g.IntN(chainClasses))
		tg.labels = append(tg.labels, l)
		if i%5 < 3 {
			tg.train = append(tg.train, int32(i))
			tg.seg = append(tg.seg, l)
		} else {
			tg.seg = append(tg.seg, -1)
		}
	}
	scale := func(d *tensor.Dense, s float32) *tensor.Dense {
		for i := range d.Data {
			d.Data[i] *= s
		}
		return d
	}
	tg.params = []*Var{
		NewParam("w1", scale(testkit.RandDense(feats, hidden, seed+2), 0.3)),
		NewParam("aSrc", testkit.RandDense(hidden, 2, seed+3)),
		NewParam("aDst", testkit.RandDense(hidden, 2, seed+4)),
		NewParam("w2", testkit.RandDense(hidden, chainClasses, seed+5)),
		NewParam("bias", testkit.RandDense(1, chainClasses, seed+6)),
		NewParam("scalar", testkit.RandDense(1, 1, seed+7)),
	}
	return tg
}

// forward runs a model that touches most operations of the package: sparse
// feature dropout, SpMM, two-head attention, prototypes, STE, losses.
func (g *testGraph) forward(tp *Tape) *Var {
	w1, aSrc, aDst, w2, bias, scalar := g.params[0], g.params[1], g.params[2], g.params[3], g.params[4], g.params[5]
	h := tp.ReLU(tp.SpMM(tp.DropoutCSR(g.x, 0.2), w1))
	h = tp.Dropout(h, 0.5)
	h = tp.SpMM(g.adj, h)
	e := tp.LeakyReLU(tp.EdgeGatherAdd(g.adj, tp.MatMul(h, aSrc), tp.MatMul(h, aDst)), 0.2)
	att := tp.EdgeSoftmax(g.adj, e)
	h0 := tp.ELU(tp.SpMMEdges(g.adj, tp.SliceCols(att, 0, 1), h), 1)
	h1 := tp.Tanh(tp.SpMMEdges(g.adj, tp.SliceCols(att, 1, 2), h))
	hc := tp.ConcatCols(h0, h1)
	logits := tp.Add(tp.MatMul(tp.SliceCols(hc, 0, h.Cols()), w2), bias)
	logits = tp.Mul(logits, tp.AddConst(scalar, 1))
	protos := tp.SegmentMean(h1, g.seg, chainClasses)
	sim := tp.MatMulNT(h1, protos)
	soft := tp.Softmax(sim)
	hard := tp.STE(tp.OneHotArgmax(soft), soft)
	reg := tp.Mean(tp.Sigmoid(tp.SumRows(tp.Gather(hard, g.train))))
	ce := tp.CrossEntropy(logits, g.labels, g.train)
	nll := tp.NLLLoss(tp.LogSoftmax(tp.Neg(tp.Scale(sim, -3))), g.labels, g.train)
	return tp.Add(tp.Add(ce, tp.Scale(nll, 0.5)), tp.Sub(reg, tp.Sum(tp.StopGrad(reg))))
}

// step runs one training step of g on tp from a fresh RNG: zero gradients,
// reset, forward, backward. It returns the loss.
func (g *testGraph) step(tp *Tape, seed uint64) float32 {
	for _, p := range g.params {
		p.ZeroGrad()
	}
	tp.Reset()
	tp.Training, tp.RNG = true, rng.New(seed)
	loss := g.forward(tp)
	tp.Backward(loss)
	return loss.Scalar()
}
