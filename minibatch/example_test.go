package minibatch_test

import (
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/minibatch"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// A history that holds the operand's values makes a one-neighbour sample
// of a star's centre give the centre's exact row of Â·Z.
func ExampleHistory() {
	// a star: node 0 linked to 1, 2 and 3
	var ts []tensor.Triplet
	for v := int32(1); v <= 3; v++ {
		ts = append(ts, tensor.Triplet{Row: 0, Col: v, Val: 1}, tensor.Triplet{Row: v, Col: 0, Val: 1})
	}
	adj := tensor.FromTriplets(4, 4, ts)
	ahat := graph.GCNNorm(adj)
	z := tensor.NewDense(4, 1)
	copy(z.Data, []float32{1, 2, 3, 4})

	s, _ := minibatch.NewSampler(adj, []int{1}) // one neighbour of three
	h, _ := minibatch.NewHistory(adj, ahat, minibatch.GCNNorm, 1)
	tp := autograd.NewTape(tensor.Serial)
	agg := h.Layers()[0]

	// a first batch computes Z on its nodes: the history takes it
	sample := s.Sample([]int32{1, 2, 3}, rng.New(1))
	h.Bind(sample)
	zb := tensor.NewDense(len(sample.Nodes), 1)
	for k, v := range sample.Nodes {
		zb.Data[k] = z.Data[v]
	}
	tp.Training = false // a dropout-free pass
	agg.Aggregate(tp, tp.Const(zb), nil)
	h.Commit()

	// the centre's batch: exact, whichever neighbour it draws
	sample = s.Sample([]int32{0}, rng.New(2))
	h.Bind(sample)
	zb = tensor.NewDense(len(sample.Nodes), 1)
	for k, v := range sample.Nodes {
		zb.Data[k] = z.Data[v]
	}
	tp.Reset()
	out := agg.Aggregate(tp, tp.Const(zb), nil)
	want := 0.0
	for e := ahat.RowPtr[0]; e < ahat.RowPtr[1]; e++ {
		want += float64(ahat.Val[e]) * float64(z.Data[ahat.ColIdx[e]])
	}
	fmt.Printf("drew %d of 3 neighbours: estimate %.4f, whole graph %.4f\n", sample.Drew[0], out.Value.Data[0], want)
	fmt.Printf("history: %d bytes (L × n × w float32)\n", h.Bytes())
	// Output:
	// drew 1 of 3 neighbours: estimate 3.4320, whole graph 3.4320
	// history: 16 bytes (L × n × w float32)
}
