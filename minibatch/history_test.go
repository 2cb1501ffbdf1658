package minibatch

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// propagations are the two matrices a History estimates, over g's adjacency.
func propagations(adj, ahat *tensor.CSR) []struct {
	name string
	prop Propagation
	full *tensor.CSR
} {
	return []struct {
		name string
		prop Propagation
		full *tensor.CSR
	}{{"gcn-norm", GCNNorm, ahat}, {"mean", MeanAgg, MeanAdjacency(adj)}}
}

// fullRow64 is row u of full·z in float64.
func fullRow64(full *tensor.CSR, z *tensor.Dense, u int32) []float64 {
	out := make([]float64, z.Cols)
	for e := full.RowPtr[u]; e < full.RowPtr[u+1]; e++ {
		for j := range out {
			out[j] += float64(full.Val[e]) * float64(z.At(int(full.ColIdx[e]), j))
		}
	}
	return out
}

// gather returns z's rows at nodes as a constant of t.
func gather(t *autograd.Tape, z *tensor.Dense, nodes []int32) *autograd.Var {
	d := t.Alloc(len(nodes), z.Cols)
	for k, v := range nodes {
		copy(d.Row(k), z.Row(int(v)))
	}
	return t.Const(d)
}

// With the history equal to the operand, the estimate is the whole graph's
// product on every row it is read at, for any sample: only Z − H̄ = 0 is
// sampled.
func TestHistoryEqualToTheOperandIsExact(t *testing.T) {
	g := randomGraph(t, 300, 12, 21)
	z := testkit.RandDense(g.N, 5, 3)
	for _, pc := range propagations(g.Adj, g.AHat()) {
		t.Run(pc.name, func(t *testing.T) {
			s, _ := NewSampler(g.Adj, []int{3, 2})
			h, err := NewHistory(g.Adj, pc.full, pc.prop, 2)
			if err != nil {
				t.Fatal(err)
			}
			for l := range 2 {
				h.store[l] = z.Clone()
			}
			r := rng.New(4)
			for draw := range 5 {
				sm := s.Sample([]int32{int32(draw), 40, 41, 299}, r)
				h.Bind(sm)
				tp := autograd.NewTape(tensor.Serial)
				for l, agg := range h.Layers() {
					out := agg.Aggregate(tp, gather(tp, z, sm.Nodes), nil)
					rows := sm.HopEnds[1-l] // layer l+1's outputs are read within 1−l hops
					for k := range rows {
						want := fullRow64(pc.full, z, sm.Nodes[k])
						for j, w := range want {
							if d := math.Abs(float64(out.Value.At(k, j)) - w); d > 1e-5 {
								t.Fatalf("draw %d layer %d node %d col %d: %g, whole graph %g", draw, l+1, sm.Nodes[k], j, out.Value.At(k, j), w)
							}
						}
					}
				}
			}
		})
	}
}

// For any history, the estimate is unbiased: its mean over samples is the
// whole graph's product. Seeds' rows, fanout 3 of degrees about 12, 20000
// draws; the tolerance is about four standard errors.
func TestHistoryEstimateIsUnbiased(t *testing.T) {
	g := randomGraph(t, 120, 12, 5)
	z := testkit.RandDense(g.N, 3, 1)
	stale := testkit.RandDense(g.N, 3, 2)
	for _, pc := range propagations(g.Adj, g.AHat()) {
		t.Run(pc.name, func(t *testing.T) {
			s, _ := NewSampler(g.Adj, []int{3})
			h, _ := NewHistory(g.Adj, pc.full, pc.prop, 1)
			h.store[0] = stale
			seeds := []int32{7, 60}
			const draws = 20000
			mean := make([][]float64, len(seeds))
			for i := range mean {
				mean[i] = make([]float64, z.Cols)
			}
			r := rng.New(9)
			tp := autograd.NewTape(tensor.Serial)
			for range draws {
				tp.Reset()
				sm := s.Sample(seeds, r)
				h.Bind(sm)
				out := h.Layers()[0].Aggregate(tp, gather(tp, z, sm.Nodes), nil)
				for k := range seeds {
					for j := range mean[k] {
						mean[k][j] += float64(out.Value.At(k, j)) / draws
					}
				}
			}
			for k, u := range seeds {
				for j, w := range fullRow64(pc.full, z, u) {
					if math.Abs(mean[k][j]-w) > 0.02 {
						t.Errorf("node %d col %d: mean estimate %.4f, whole graph %.4f", u, j, mean[k][j], w)
					}
				}
			}
		})
	}
}

// Commit writes the rows computed exactly, and only those: every node of a
// one-hop batch for the first layer's input, the seeds and their drawn
// neighbours (within one hop) for the second's; Aggregate alone writes
// nothing.
func TestHistoryCommitsTheRowsComputedExactly(t *testing.T) {
	g := randomGraph(t, 200, 8, 3)
	s, _ := NewSampler(g.Adj, []int{3, 2})
	h, _ := NewHistory(g.Adj, g.AHat(), GCNNorm, 2)
	sm := s.Sample([]int32{1, 2, 3}, rng.New(1))
	h.Bind(sm)
	tp := autograd.NewTape(tensor.Serial)
	z := testkit.RandDense(len(sm.Nodes), 4, 8)
	for _, agg := range h.Layers() {
		agg.Aggregate(tp, tp.Const(z), nil)
	}
	for l := range 2 {
		for _, v := range h.store[l].Data {
			if v != 0 {
				t.Fatalf("layer %d: history written before Commit", l+1)
			}
		}
	}
	h.Commit()
	for l, within := range []int{len(sm.Nodes), sm.HopEnds[1]} {
		inBatch := map[int32]int{}
		for k, v := range sm.Nodes {
			inBatch[v] = k
		}
		for v := range int32(g.N) {
			k, ok := inBatch[v]
			written := ok && k < within
			for j, x := range h.store[l].Row(int(v)) {
				if written && x != z.At(k, j) || !written && x != 0 {
					t.Fatalf("layer %d node %d (batch row %d, written %v): history %g", l+1, v, k, written, x)
				}
			}
		}
	}
	if want := int64(4 * 2 * g.N * 4); h.Bytes() != want {
		t.Errorf("Bytes %d, want L·n·h·4 = %d", h.Bytes(), want)
	}
}

// In steady state (the same batch shapes again) a step's history work
// allocates no buffer: Bind, the dropout-free pass, the training pass and
// Commit reuse the stores, the scratch matrices and the tape's pool; what
// remains is each layer's CSR of exact rows, whose header and cached
// pattern (checks, transpose) are new with its contents: two small structs
// per layer.
func TestHistoryStepAllocatesNoBuffers(t *testing.T) {
	g := randomGraph(t, 300, 12, 21)
	s, _ := NewSampler(g.Adj, []int{3, 2})
	h, _ := NewHistory(g.Adj, g.AHat(), GCNNorm, 2)
	sm := s.Sample([]int32{1, 2, 3, 4}, rng.New(1))
	z := testkit.RandDense(len(sm.Nodes), 16, 2)
	tp := autograd.NewTape(tensor.Serial)
	step := func() {
		h.Bind(sm)
		for _, training := range []bool{false, true} {
			tp.Reset()
			tp.Training = training
			for _, agg := range h.Layers() {
				agg.Aggregate(tp, tp.Const(z), nil)
			}
		}
		h.Commit()
	}
	step()
	step()
	if n := testing.AllocsPerRun(10, step); n > 4 {
		t.Errorf("%v allocations per step, want at most 4 (two headers per layer, no buffers)", n)
	}
}
