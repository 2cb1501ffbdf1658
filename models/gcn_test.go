package models

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// TestGCNAndMLPParamGradients compares Backward's gradient of the training
// loss (mean cross-entropy over the training nodes, dropout off) with central
// differences of a float64 transcription of each model, element by element
// with a relative tolerance, for every parameter. The fault cases scale the
// analytic gradient by 1.01 and must fail; deliberately breaking the
// backward of SpMM (GCN) or of ReLU also fails them.
func TestGCNAndMLPParamGradients(t *testing.T) {
	const atol, rtol = 1e-6, 2e-3
	g := tinyGraph(t)
	d := NewData(g, g.Splits[0], false)
	// the same graph with its links' direction, for GCN's directed switch
	gd := g.ShallowCopy()
	out, err := graph.DirectedAdjacency(7, []graph.Edge{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {1, 4}, {2, 5}, {4, 1}})
	if err != nil {
		t.Fatal(err)
	}
	gd.Out = out
	dd := NewData(gd, gd.Splits[0], false)
	common := func(layers int) Common {
		return Common{Hidden: 5, Layers: layers, Dropout: 0, LR: 0.01}
	}
	gcnOn := func(d *Data, directed bool, layers int) func(t *testing.T) (Model, func(params64) [][]float64) {
		return func(t *testing.T) (Model, func(params64) [][]float64) {
			m, err := NewGCN(d, &GCNConfig{Common: common(layers), Directed: directed}, rng.New(5))
			if err != nil {
				t.Fatal(err)
			}
			// GCN's biases start at zero: give them values so that their
			// gradient and the ReLU pattern are generic
			r := rng.New(6)
			for _, c := range m.convs {
				for i := range c.B.Value.Data {
					c.B.Value.Data[i] = r.Uniform(-0.5, 0.5)
				}
			}
			return m, func(v params64) [][]float64 { return gcnRef64(m, d, v) }
		}
	}
	gcn := func(layers int) func(t *testing.T) (Model, func(params64) [][]float64) {
		return gcnOn(d, false, layers)
	}
	mlp := func(layers int) func(t *testing.T) (Model, func(params64) [][]float64) {
		return func(t *testing.T) (Model, func(params64) [][]float64) {
			m, err := NewMLP(d, &MLPConfig{Common: common(layers)}, rng.New(5))
			if err != nil {
				t.Fatal(err)
			}
			return m, func(v params64) [][]float64 { return mlpRef64(m, d, v) }
		}
	}
	for _, tc := range []struct {
		name     string
		build    func(t *testing.T) (Model, func(params64) [][]float64)
		scale    float64 // injected fault: the analytic gradient times scale
		wantFail bool
	}{
		{"gcn 1 layer", gcn(1), 1, false},
		{"gcn 2 layers", gcn(2), 1, false},
		{"gcn 3 layers", gcn(3), 1, false},
		{"gcn 2 layers, fault: gradient x1.01", gcn(2), 1.01, true},
		{"gcn 2 layers, directed links", gcnOn(dd, true, 2), 1, false},
		{"mlp 1 layer", mlp(1), 1, false},
		{"mlp 2 layers", mlp(2), 1, false},
		{"mlp 3 layers", mlp(3), 1, false},
		{"mlp 2 layers, fault: gradient x1.01", mlp(2), 1.01, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, forward := tc.build(t)
			// the reference must be the model
			_, out := evalForward(m)
			assertClose(t, "logits", out.Logits.Value, forward(paramsOf(m)), 1e-5)
			ana := scaleGrads(analyticGrads(m, d), tc.scale)
			num := numericGrads(m, func(v params64) float64 { return ceMean64(forward(v), g.Y, d.Train) })
			compareGrads(m, ana, num, atol, rtol).report(t, tc.wantFail)
			// every parameter must have gradients well above the tolerance
			for _, p := range m.Params() {
				var mx float64
				for _, v := range num[p] {
					mx = math.Max(mx, math.Abs(v))
				}
				if mx < 1e-3 {
					t.Errorf("%s: largest gradient %.3g, too small to test", p.Name, mx)
				}
			}
		})
	}
}

// TestDirectedSwitch: GCN and GCNII convolve with the directed
// normalisation only when asked and when the graph keeps its links'
// direction; otherwise with Â, as before the switch existed.
func TestDirectedSwitch(t *testing.T) {
	g := tinyGraph(t)
	out, err := graph.DirectedAdjacency(7, []graph.Edge{{0, 1}, {1, 2}, {4, 1}})
	if err != nil {
		t.Fatal(err)
	}
	gd := g.ShallowCopy()
	gd.Out = out
	for _, c := range []struct {
		name     string
		g        *graph.Graph
		directed bool
		wantAHat bool
	}{
		{"undirected graph, switch on", g, true, true},
		{"directed graph, switch off", gd, false, true},
		{"directed graph, switch on", gd, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := NewData(c.g, c.g.Splits[0], false)
			m1, err := NewGCN(d, &GCNConfig{Common: Common{Hidden: 4, Layers: 2, LR: 0.01}, Directed: c.directed}, rng.New(1))
			if err != nil {
				t.Fatal(err)
			}
			p := GCNIIPreset("chameleon")
			p.Directed = c.directed
			m2, err := NewGCNII(d, p, rng.New(1))
			if err != nil {
				t.Fatal(err)
			}
			for _, adj := range []*tensor.CSR{m1.convs[0].Adj, m2.adj} {
				if (adj == d.AHat()) != c.wantAHat || (!c.wantAHat && adj.Symmetric()) {
					t.Errorf("convolves with Â: %v, want %v", adj == d.AHat(), c.wantAHat)
				}
			}
		})
	}
}
