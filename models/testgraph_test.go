package models

import (
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit/graphtest"
	"github.com/pcgcn/pcgcn/testkit/ref64"
)

// tinyGraph is a 7-node, 3-class graph with dense 4-dim features and one
// split; isolated node 6 checks the self-loop normalisation.
func tinyGraph(t *testing.T) *graph.Graph {
	t.Helper()
	edges := []graph.Edge{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {1, 4}, {2, 5}, {5, 5}, {0, 1}}
	g := rng.New(11)
	x := tensor.NewDense(7, 4)
	for i := range x.Data {
		x.Data[i] = g.Uniform(0, 1)
	}
	return graphtest.New(t, "tiny", []int32{0, 1, 2, 0, 1, 2, 1}, 3, edges, x,
		[]graph.Split{{Train: []int32{0, 1, 2, 4}, Val: []int32{3, 5}, Test: []int32{6}}})
}

// tinyData is tinyGraph's split 0 with raw features, stored sparse when
// sparse is set (same values).
func tinyData(t *testing.T, sparse bool) *Data {
	t.Helper()
	g := tinyGraph(t)
	if sparse {
		g.X = graph.Features{Sparse: tensor.DenseToCSR(g.X.Dense)}
	}
	return NewData(g, g.Splits[0], false)
}

// presetWith returns the named model's spec and its preset for dataset with
// one option set, as --set would.
func presetWith(t *testing.T, model, dataset, key, value string) (Spec, Config) {
	t.Helper()
	spec, err := NewRegistry().Get(model)
	if err != nil {
		t.Fatal(err)
	}
	cfg := spec.Preset(dataset)
	if err := SetOption(cfg, key, value); err != nil {
		t.Fatal(err)
	}
	return spec, cfg
}

// checkTrainingForward runs m's forward pass in training mode (dropout on,
// the same seed) with 1 and 3 threads: the two must agree bit for bit, and
// differ from eval, the evaluation forward, since dropout p is on.
func checkTrainingForward(t *testing.T, m Model, eval []float32, what string) {
	t.Helper()
	run := func(threads int) []float32 {
		tp := autograd.NewTape(tensor.Exec{Threads: threads})
		tp.Training, tp.RNG = true, rng.New(5)
		return m.Forward(tp).Logits.Value.Clone().Data
	}
	a, b := run(1), run(3)
	differs := false
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("%s: the training forward differs with the thread count at %d", what, i)
		}
		differs = differs || a[i] != eval[i]
	}
	if !differs {
		t.Errorf("%s in training changed nothing", what)
	}
}

// dense64 converts a matrix to float64 rows.
func dense64(d *tensor.Dense) [][]float64 { return ref64.Dense(d) }

// mm is the float64 product a·b.
func mm(a, b [][]float64) [][]float64 { return ref64.Mul(a, b) }

func transpose(a [][]float64) [][]float64 {
	out := make([][]float64, len(a[0]))
	for j := range out {
		out[j] = make([]float64, len(a))
		for i := range a {
			out[j][i] = a[i][j]
		}
	}
	return out
}

// addBias adds the 1×c bias b to every row of a.
func addBias(a [][]float64, b [][]float64) [][]float64 { return ref64.AddRow(a, b[0]) }

// assertClose compares got with the float64 reference want.
func assertClose(t *testing.T, what string, got *tensor.Dense, want [][]float64, tol float64) {
	t.Helper()
	ref64.AssertClose(t, what, got, want, tol)
}
