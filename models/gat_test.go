package models

import (
	"fmt"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit/ref64"
)

// The helpers prefixed "classic" are shared by the tests of the classic
// baselines (gat, sage, sgc, appnp).

// classicEdges is the tiny test graph: a triangle 0-1-2, a path 2-3-4 and an
// isolated node 5.
var classicEdges = [][2]int{{0, 1}, {0, 2}, {1, 2}, {2, 3}, {3, 4}}

// classicData returns the 6-node, 4-feature, 3-class test graph with its
// features stored sparse or dense, and the model data of its only split.
func classicData(t *testing.T, sparse bool) *Data {
	t.Helper()
	x := tensor.FromRows([][]float32{
		{1, 0, 0.5, 0},
		{0, 2, 0, 0},
		{0.3, 0, 0, 1},
		{0, 0, 1.5, 0},
		{1, 1, 0, 0},
		{0, 0, 0, 0.7},
	})
	var edges []graph.Edge
	for _, e := range classicEdges {
		edges = append(edges, graph.Edge{int32(e[0]), int32(e[1])})
	}
	adj, err := graph.UndirectedAdjacency(6, edges)
	if err != nil {
		t.Fatal(err)
	}
	f := graph.Features{Dense: x}
	if sparse {
		f = graph.Features{Sparse: tensor.DenseToCSR(x)}
	}
	g := &graph.Graph{Name: "tiny", N: 6, Adj: adj, X: f, Y: []int32{0, 1, 2, 0, 1, 2}, NumClasses: 3,
		Splits: []graph.Split{{Train: []int32{0, 1, 2}, Val: []int32{3}, Test: []int32{4, 5}}}}
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	return NewData(g, g.Splits[0], false)
}

// classicX returns the test features in float64.
func classicX(d *Data) [][]float64 { return classicMat(d.X.ToDense()) }

// classicNeighbours returns the neighbour lists of the test graph (without
// the node itself).
func classicNeighbours() [][]int {
	nb := make([][]int, 6)
	for _, e := range classicEdges {
		nb[e[0]] = append(nb[e[0]], e[1])
		nb[e[1]] = append(nb[e[1]], e[0])
	}
	return nb
}

// classicAHat returns D̃^{-1/2}(A+I)D̃^{-1/2} of the test graph, dense float64.
func classicAHat() [][]float64 {
	nb := classicNeighbours()
	a := make([][]float64, 6)
	for i := range a {
		a[i] = make([]float64, 6)
		a[i][i] = 1 / float64(len(nb[i])+1)
		for _, j := range nb[i] {
			a[i][j] = 1 / math.Sqrt(float64((len(nb[i])+1)*(len(nb[j])+1)))
		}
	}
	return a
}

// classicMat converts a Dense to float64 rows.
func classicMat(d *tensor.Dense) [][]float64 { return ref64.Dense(d) }

// classicMatMul returns a·b.
func classicMatMul(a, b [][]float64) [][]float64 { return ref64.Mul(a, b) }

// classicAddRow adds the row vector b to every row of a, in place.
func classicAddRow(a [][]float64, b []float64) [][]float64 { return ref64.AddRow(a, b) }

// classicMap applies f to every element of a, in place.
func classicMap(a [][]float64, f func(float64) float64) [][]float64 {
	for i := range a {
		for j := range a[i] {
			a[i][j] = f(a[i][j])
		}
	}
	return a
}

func classicReLU(v float64) float64 { return math.Max(v, 0) }

// classicForward runs m in evaluation mode and returns its logits.
func classicForward(m Model) *tensor.Dense {
	tp := autograd.NewTape(tensor.Serial)
	return m.Forward(tp).Logits.Value.Clone()
}

// classicCompare fails when got and want differ by more than 1e-4 relative.
func classicCompare(t *testing.T, name string, got *tensor.Dense, want [][]float64) {
	t.Helper()
	if got.Rows != len(want) || got.Cols != len(want[0]) {
		t.Fatalf("%s: got %s, want %d×%d", name, got.Shape(), len(want), len(want[0]))
	}
	for i := range want {
		for j, w := range want[i] {
			if g := float64(got.At(i, j)); math.Abs(g-w) > 1e-4*(1+math.Abs(w)) {
				t.Errorf("%s: [%d,%d] = %.6g, want %.6g", name, i, j, g, w)
			}
		}
	}
}

// classicGradCheck: see checkForwardGradients.
func classicGradCheck(t *testing.T, name string, m Model, setup func(tp *autograd.Tape)) {
	t.Helper()
	checkForwardGradients(t, name, m, false, setup)
}

// classicSpecCheck checks that the registry serves name with a config of the
// model's type whose options include keys.
func classicSpecCheck(t *testing.T, name string, keys ...string) {
	t.Helper()
	spec, err := NewRegistry().Get(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, ds := range []string{"cora", "chameleon", "texas", "unknown"} {
		cfg := spec.Preset(ds)
		if cfg.Base().LR <= 0 {
			t.Errorf("%s preset for %s has lr %g", name, ds, cfg.Base().LR)
		}
		for _, k := range keys {
			if err := SetOption(cfg, k, "2"); err != nil {
				t.Errorf("%s: option %s: %v", name, k, err)
			}
		}
	}
	d := classicData(t, true)
	m, err := spec.New(d, spec.Preset("texas"), rng.New(1))
	if err != nil {
		t.Fatal(err)
	}
	if got := classicForward(m); got.Rows != 6 || got.Cols != 3 {
		t.Errorf("%s: logits %s, want 6×3", name, got.Shape())
	}
	if _, err := spec.New(d, &MLPConfig{}, rng.New(1)); err == nil {
		t.Errorf("%s accepted a foreign config", name)
	}
}

// gatReference is GAT's forward pass in float64 with plain loops.
func gatReference(m *GAT, x [][]float64) [][]float64 {
	nb := classicNeighbours()
	slope := m.cfg.NegativeSlope
	h := x
	for li, l := range m.layers {
		if li > 0 {
			h = classicMap(h, func(v float64) float64 {
				if v > 0 {
					return v
				}
				return math.Expm1(v)
			})
		}
		z := classicMatMul(h, classicMat(l.w.Value))
		src, dst := classicMat(l.attSrc.Value)[0], classicMat(l.attDst.Value)[0]
		width := l.ch
		if l.concat {
			width = l.heads * l.ch
		}
		out := make([][]float64, len(z))
		for i := range z {
			out[i] = make([]float64, width)
			for k := 0; k < l.heads; k++ {
				score := func(j int, a []float64) float64 {
					var s float64
					for c := 0; c < l.ch; c++ {
						s += z[j][k*l.ch+c] * a[k*l.ch+c]
					}
					return s
				}
				js := append([]int{i}, nb[i]...)
				e := make([]float64, len(js))
				var mx float64 = math.Inf(-1)
				for q, j := range js {
					v := score(i, dst) + score(j, src)
					if v < 0 {
						v *= slope
					}
					e[q] = v
					mx = math.Max(mx, v)
				}
				var sum float64
				for q := range e {
					e[q] = math.Exp(e[q] - mx)
					sum += e[q]
				}
				for q, j := range js {
					a := e[q] / sum
					for c := 0; c < l.ch; c++ {
						if l.concat {
							out[i][k*l.ch+c] += a * z[j][k*l.ch+c]
						} else {
							out[i][c] += a * z[j][k*l.ch+c] / float64(l.heads)
						}
					}
				}
			}
		}
		h = classicAddRow(out, classicMat(l.b.Value)[0])
	}
	return h
}

// gatRandomize gives the biases non-zero values so that the test sees them.
func gatRandomize(m *GAT, g *rng.RNG) {
	for _, l := range m.layers {
		for i := range l.b.Value.Data {
			l.b.Value.Data[i] = float32(g.Float64() - 0.5)
		}
	}
}

func TestGATForwardMatchesReference(t *testing.T) {
	cases := []struct {
		name                   string
		layers, heads, outHead int
	}{
		{"2 layers, 3 heads, 2 output heads", 2, 3, 2},
		{"3 layers, 2 heads, 1 output head", 3, 2, 1},
		{"1 layer, 1 head", 1, 1, 1},
	}
	for _, sparse := range []bool{false, true} {
		for _, tc := range cases {
			t.Run(fmt.Sprintf("sparse=%v/%s", sparse, tc.name), func(t *testing.T) {
				d := classicData(t, sparse)
				cfg := GATPreset("texas")
				cfg.Layers, cfg.Heads, cfg.OutHeads, cfg.Hidden = tc.layers, tc.heads, tc.outHead, 3
				m, err := NewGAT(d, cfg, rng.New(3))
				if err != nil {
					t.Fatal(err)
				}
				gatRandomize(m, rng.New(4))
				classicCompare(t, tc.name, classicForward(m), gatReference(m, classicX(d)))
			})
		}
	}
}

func TestGATGradient(t *testing.T) {
	d := classicData(t, false)
	cfg := GATPreset("texas")
	cfg.Heads, cfg.OutHeads, cfg.Hidden = 2, 2, 2
	m, err := NewGAT(d, cfg, rng.New(5))
	if err != nil {
		t.Fatal(err)
	}
	gatRandomize(m, rng.New(6))
	classicGradCheck(t, "gat", m, nil)
}

func TestGATTrainingDropoutIsDeterministic(t *testing.T) {
	d := classicData(t, true)
	m, err := NewGAT(d, GATPreset("texas"), rng.New(1))
	if err != nil {
		t.Fatal(err)
	}
	run := func(threads int) *tensor.Dense {
		tp := autograd.NewTape(tensor.Exec{Threads: threads})
		tp.Training, tp.RNG = true, rng.New(9)
		return m.Forward(tp).Logits.Value.Clone()
	}
	a, b := run(1), run(4)
	eval := classicForward(m)
	same := true
	for i := range a.Data {
		if a.Data[i] != b.Data[i] {
			t.Fatalf("training forward differs with thread count at %d: %g vs %g", i, a.Data[i], b.Data[i])
		}
		same = same && a.Data[i] == eval.Data[i]
	}
	if same {
		t.Error("dropout 0.6 in training changed nothing")
	}
}

func TestGATSpec(t *testing.T) {
	classicSpecCheck(t, "gat", "heads", "out_heads", "attn_dropout", "negative_slope")
	if c := GATPreset("cora"); c.WeightDecay != 5e-4 || c.Heads != 8 || c.Hidden != 8 || c.OutHeads != 1 {
		t.Errorf("cora preset %+v", c)
	}
	if c := GATPreset("chameleon"); c.WeightDecay != 5e-5 || c.LR != 0.005 || c.Dropout != 0.6 {
		t.Errorf("chameleon preset %+v", c)
	}
	bad := GATPreset("cora")
	bad.Heads = 0
	if _, err := NewGAT(classicData(t, false), bad, rng.New(1)); err == nil {
		t.Error("heads 0 accepted")
	}
}
