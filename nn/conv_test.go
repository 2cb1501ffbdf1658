package nn

import (
	"math"
	"strconv"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
	"github.com/pcgcn/pcgcn/testkit/ref64"
)

// convGraph returns the 6-node adjacency of sparseFeatures' rows (node 5
// without neighbours).
func convGraph(t *testing.T) *tensor.CSR {
	t.Helper()
	adj, err := graph.UndirectedAdjacency(6, []graph.Edge{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {1, 4}})
	if err != nil {
		t.Fatal(err)
	}
	return adj
}

// rowMean returns D⁻¹A (rows of isolated nodes empty).
func rowMean(adj *tensor.CSR) *tensor.CSR {
	val := make([]float32, adj.NNZ())
	for i := 0; i < adj.Rows; i++ {
		for k := adj.RowPtr[i]; k < adj.RowPtr[i+1]; k++ {
			val[k] = 1 / float32(adj.RowPtr[i+1]-adj.RowPtr[i])
		}
	}
	return adj.WithValues(val)
}

// randomize fills every parameter with values from U(−1, 1), so that zero
// biases do not hide a missing term.
func randomize(m Module, seed uint64) {
	g := rng.New(seed)
	for _, p := range m.Params() {
		Uniform(p.Value, -1, 1, g)
	}
}

// inputs returns sparseFeatures as dense and as sparse input.
func inputs(tp *autograd.Tape) map[string]Input {
	x := sparseFeatures()
	return map[string]Input{
		"dense":  InputFromFeatures(tp, graph.Features{Dense: x}),
		"sparse": InputFromFeatures(tp, graph.Features{Sparse: tensor.DenseToCSR(x)}),
	}
}

// TestConvsMatchReference compares each layer with its formula in float64,
// on dense and sparse input: GCNConv Â·X·W + b, SAGEConv
// mean(X)·W_neigh + b + X·W_self (Â here any fixed matrix: GCNNorm).
func TestConvsMatchReference(t *testing.T) {
	adj := convGraph(t)
	aHat, mean := graph.GCNNorm(adj), rowMean(adj)
	x := ref64.Dense(sparseFeatures())
	gcn := NewGCNConv("conv", aHat, 5, 3, rng.New(1))
	sage := NewSAGEConv("sage", mean, 5, 3, rng.New(1))
	randomize(gcn, 2)
	randomize(sage, 3)
	for _, tc := range []struct {
		name  string
		layer Layer
		want  [][]float64
	}{
		{"GCNConv", gcn, ref64.AddRow(ref64.Mul(ref64.Dense(aHat.ToDense()), ref64.Mul(x, ref64.Dense(gcn.W.Value))), ref64.Dense(gcn.B.Value)[0])},
		{"SAGEConv", sage, func() [][]float64 {
			out := ref64.AddRow(ref64.Mul(ref64.Dense(mean.ToDense()), ref64.Mul(x, ref64.Dense(sage.Neigh.W.Value))), ref64.Dense(sage.Neigh.B.Value)[0])
			self := ref64.Mul(x, ref64.Dense(sage.Self.W.Value))
			for i := range out {
				for j := range out[i] {
					out[i][j] += self[i][j]
				}
			}
			return out
		}()},
	} {
		tp := autograd.NewTape(tensor.Serial)
		for kind, in := range inputs(tp) {
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				ref64.AssertClose(t, tc.name, tc.layer.ForwardInput(tp, in, 0.5).Value, tc.want, 1e-5) // not training: no dropout
			})
		}
	}
}

// TestConvsInitAndNames checks the parameters' names, shapes and order and
// the initialisation: GCNConv's W is XavierUniform from the layer's RNG and
// b zero; SAGEConv is two Linear layers drawn neighbour side first.
func TestConvsInitAndNames(t *testing.T) {
	adj := convGraph(t)
	t.Run("GCNConv", func(t *testing.T) {
		c := NewGCNConv("conv2", adj, 5, 3, rng.New(4))
		w := tensor.NewDense(5, 3)
		XavierUniform(w, 1, rng.New(4))
		ps := c.Params()
		if len(ps) != 2 || ps[0].Name != "conv2.W" || ps[1].Name != "conv2.b" || ps[1].Rows() != 1 || ps[1].Cols() != 3 {
			t.Fatalf("params %v", ps)
		}
		for i, v := range w.Data {
			if c.W.Value.Data[i] != v {
				t.Fatal("W is not XavierUniform's draw")
			}
		}
		if _, _, m := stats(c.B.Value); m != 0 {
			t.Error("b does not start at zero")
		}
	})
	t.Run("SAGEConv", func(t *testing.T) {
		c := NewSAGEConv("conv1", adj, 5, 3, rng.New(4))
		g := rng.New(4)
		neigh, self := NewLinear("conv1.lin_neigh", 5, 3, true, g), NewLinear("conv1.lin_self", 5, 3, false, g)
		var names []string
		for _, p := range c.Params() {
			names = append(names, p.Name)
		}
		if len(names) != 3 || names[0] != "conv1.lin_neigh.W" || names[1] != "conv1.lin_neigh.b" || names[2] != "conv1.lin_self.W" {
			t.Fatalf("params %v", names)
		}
		for i, v := range self.W.Value.Data {
			if c.Self.W.Value.Data[i] != v || c.Neigh.W.Value.Data[i] != neigh.W.Value.Data[i] {
				t.Fatal("the sides are not Linear's draws, neighbour side first")
			}
		}
	})
}

// TestConvsGradCheck checks every parameter's gradient numerically, through
// the sparse propagation.
func TestConvsGradCheck(t *testing.T) {
	adj := convGraph(t)
	x := sparseFeatures()
	for _, tc := range []struct {
		name  string
		layer func(p []*autograd.Var) Layer
		init  Module
	}{
		{"GCNConv", func(p []*autograd.Var) Layer { return &GCNConv{W: p[1], B: p[2], Adj: graph.GCNNorm(adj)} },
			NewGCNConv("c", adj, 5, 3, rng.New(5))},
		{"SAGEConv", func(p []*autograd.Var) Layer {
			return &SAGEConv{Neigh: &Linear{W: p[1], B: p[2]}, Self: &Linear{W: p[3]}, Mean: rowMean(adj)}
		}, NewSAGEConv("c", adj, 5, 3, rng.New(5))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			randomize(tc.init, 6)
			vals := []*tensor.Dense{x}
			for _, p := range tc.init.Params() {
				vals = append(vals, p.Value)
			}
			_, err := autograd.GradCheck(func(tp *autograd.Tape, p []*autograd.Var) *autograd.Var {
				return tc.layer(p).ForwardInput(tp, DenseInput(p[0]), 0)
			}, vals, 1e-2, 1e-3, 1e-2)
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestNewStack checks the widths and names of stacks of 1 to 3 layers and
// that the layers are built first to last.
func TestNewStack(t *testing.T) {
	type dims struct {
		name    string
		in, out int
	}
	for _, tc := range []struct {
		layers int
		want   []dims
	}{
		{1, []dims{{"lin1", 7, 2}}},
		{2, []dims{{"lin1", 7, 4}, {"lin2", 4, 2}}},
		{3, []dims{{"lin1", 7, 4}, {"lin2", 4, 4}, {"lin3", 4, 2}}},
	} {
		t.Run(strconv.Itoa(tc.layers)+" layers", func(t *testing.T) {
			got := NewStack("lin", 7, 4, 2, tc.layers, func(name string, in, out int) dims { return dims{name, in, out} })
			if len(got) != len(tc.want) {
				t.Fatalf("%d layers, want %d", len(got), len(tc.want))
			}
			for l := range got {
				if got[l] != tc.want[l] {
					t.Errorf("layer %d is %+v, want %+v", l, got[l], tc.want[l])
				}
			}
		})
	}
	testkit.Panics(t, "a stack of 0 layers", func() {
		NewStack("lin", 7, 4, 2, 0, func(string, int, int) int { return 0 })
	})
}

// TestStackChainsLayers runs Stack and the same layers by hand, in training
// with dropout, and compares the bits: the first layer reads x, each later
// one act of the previous output, every one with dropout p.
func TestStackChainsLayers(t *testing.T) {
	adj := graph.GCNNorm(convGraph(t))
	for _, layers := range []int{1, 3} {
		t.Run(map[int]string{1: "one layer", 3: "three layers"}[layers], func(t *testing.T) {
			convs := NewStack("conv", 5, 4, 3, layers, func(name string, in, out int) *GCNConv {
				return NewGCNConv(name, adj, in, out, rng.New(uint64(in*out)))
			})
			run := func(byHand bool) (out, hidden []float32) {
				tp := autograd.NewTape(tensor.Serial)
				tp.Training, tp.RNG = true, rng.New(9)
				x := InputFromFeatures(tp, graph.Features{Sparse: tensor.DenseToCSR(sparseFeatures())})
				var o, h *autograd.Var
				if byHand {
					o = convs[0].ForwardInput(tp, x, 0.3)
					h = o
					for _, c := range convs[1:] {
						h = tp.Tanh(o)
						o = c.ForwardInput(tp, DenseInput(h), 0.3)
					}
				} else {
					o, h = Stack(tp, convs, x, 0.3, tp.Tanh)
				}
				return append([]float32(nil), o.Value.Data...), append([]float32(nil), h.Value.Data...)
			}
			o1, h1 := run(false)
			o2, h2 := run(true)
			for i := range o1 {
				if math.Float32bits(o1[i]) != math.Float32bits(o2[i]) {
					t.Fatalf("output %d: Stack %v, by hand %v", i, o1[i], o2[i])
				}
			}
			for i := range h1 {
				if math.Float32bits(h1[i]) != math.Float32bits(h2[i]) {
					t.Fatalf("hidden %d: Stack %v, by hand %v", i, h1[i], h2[i])
				}
			}
			if n := len(ParamsOf(convs)); n != 2*layers {
				t.Errorf("ParamsOf gives %d parameters, want %d", n, 2*layers)
			}
		})
	}
}

// TestInputDropoutAndMatMul checks that dense and sparse input give the same
// product, that dropout outside training is the identity and that an empty
// Input panics.
func TestInputDropoutAndMatMul(t *testing.T) {
	w := tensor.NewDense(5, 2)
	Uniform(w, -1, 1, rng.New(3))
	tp := autograd.NewTape(tensor.Serial)
	want := ref64.Mul(ref64.Dense(sparseFeatures()), ref64.Dense(w))
	for kind, in := range inputs(tp) {
		t.Run(kind, func(t *testing.T) {
			if d := in.Dropout(tp, 0.5); d != in {
				t.Error("dropout outside training changed the input")
			}
			ref64.AssertClose(t, kind, in.MatMul(tp, tp.Const(w)).Value, want, 1e-5)
		})
	}
	testkit.Panics(t, "an empty Input", func() {
		Input{}.MatMul(tp, tp.Const(w))
	})
}
