package models

import (
	"fmt"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// mixingLogits runs m's forward pass with the given thread count, with
// dropout (seeded) when training.
func mixingLogits(m Model, threads int, training bool) *tensor.Dense {
	tp := autograd.NewTape(tensor.Exec{Threads: threads})
	tp.SetNoGrad(true)
	tp.Training, tp.RNG = training, rng.New(99)
	return m.Forward(tp).Logits.Value.Clone()
}

// mixingGradCheck: see checkForwardGradients (with the Aux loss).
func mixingGradCheck(t *testing.T, name string, m Model) {
	t.Helper()
	checkForwardGradients(t, name, m, true, nil)
}

// mixingCommonChecks asserts that the sparse-feature model gives the same
// logits as the dense one, that dropout changes the training logits and
// does not depend on the thread count.
func mixingCommonChecks(t *testing.T, name string, build func(d *Data) Model, want [][]float64) {
	t.Helper()
	ms := build(tinyData(t, true))
	assertClose(t, name+" sparse-feature logits", mixingLogits(ms, 2, false), want, 1e-5)
	m := build(tinyData(t, false))
	a, b := mixingLogits(m, 1, true), mixingLogits(m, 3, true)
	same := true
	for i := range a.Data {
		if a.Data[i] != b.Data[i] {
			t.Fatalf("%s: training forward differs between 1 and 3 threads at %d: %g vs %g", name, i, a.Data[i], b.Data[i])
		}
		if math.Abs(float64(a.Data[i])-want[i/a.Cols][i%a.Cols]) > 1e-6 {
			same = false
		}
	}
	if same {
		t.Errorf("%s: dropout did not change the training logits", name)
	}
}

// mixingSymNorm returns D^{-1/2}·a·D^{-1/2} with D the row sums of a (zero
// rows stay zero).
func mixingSymNorm(a [][]float64) [][]float64 {
	n := len(a)
	d := make([]float64, n)
	for i := range a {
		for _, v := range a[i] {
			d[i] += v
		}
	}
	out := make([][]float64, n)
	for i := range a {
		out[i] = make([]float64, n)
		for j := range a[i] {
			if a[i][j] != 0 {
				out[i][j] = a[i][j] / math.Sqrt(d[i]*d[j])
			}
		}
	}
	return out
}

// selfLoopNorm64 returns the float64 Â of adj: self-loops set, then
// mixingSymNorm.
func selfLoopNorm64(adj *tensor.CSR) [][]float64 {
	a := dense64(adj.ToDense())
	for i := range a {
		a[i][i] = 1
	}
	return mixingSymNorm(a)
}

func mixingReLU(a [][]float64) [][]float64 {
	for i := range a {
		for j := range a[i] {
			a[i][j] = math.Max(a[i][j], 0)
		}
	}
	return a
}

// mixingConcat joins matrices side by side.
func mixingConcat(ms ...[][]float64) [][]float64 {
	out := make([][]float64, len(ms[0]))
	for _, m := range ms {
		for i := range m {
			out[i] = append(out[i], m[i]...)
		}
	}
	return out
}

// tinyTwoHop is the strict two-hop pattern of tinyGraph worked out by hand:
// edges 0-1 1-2 2-3 3-4 4-0 1-4 2-5 (node 6 isolated).
var tinyTwoHop = [][]int{
	0: {2, 3},
	1: {3, 5},
	2: {0, 4},
	3: {0, 1, 5},
	4: {2},
	5: {1, 3},
	6: {},
}

func TestH2GCNTwoHop(t *testing.T) {
	g := tinyGraph(t)
	a2 := h2gcnTwoHop(g.Adj).ToDense()
	for i, row := range tinyTwoHop {
		want := make([]float32, g.N)
		for _, j := range row {
			want[j] = 1
		}
		for j := 0; j < g.N; j++ {
			if a2.At(i, j) != want[j] {
				t.Errorf("A₂[%d][%d] = %g, want %g", i, j, a2.At(i, j), want[j])
			}
		}
	}
}

// referenceH2GCN is a naive float64 H2GCN with the blocks ordered as the
// model orders them ([r⁰ ‖ r¹ ‖ … ‖ rᴷ]).
func referenceH2GCN(m *H2GCN, d *Data) [][]float64 {
	n := d.Graph.N
	adj := dense64(d.Graph.Adj.ToDense())
	two := make([][]float64, n)
	for i, row := range tinyTwoHop {
		two[i] = make([]float64, n)
		for _, j := range row {
			two[i][j] = 1
		}
	}
	a1, a2 := mixingSymNorm(adj), mixingSymNorm(two)
	r := mm(dense64(d.X.ToDense()), dense64(m.we.Value))
	if m.cfg.EgoReLU {
		r = mixingReLU(r)
	}
	all := r
	for k := 0; k < m.cfg.Layers; k++ {
		r = mixingConcat(mm(a1, r), mm(a2, r))
		all = mixingConcat(all, r)
	}
	return mm(all, dense64(m.wc.Value))
}

func TestH2GCNForward(t *testing.T) {
	for _, k := range []int{1, 2} {
		t.Run(fmt.Sprintf("h2gcn-%d", k), func(t *testing.T) {
			build := func(d *Data) Model {
				c := H2GCNPreset("cornell", k)
				c.Hidden = 3
				m, err := NewH2GCN(d, c, rng.New(5))
				if err != nil {
					t.Fatal(err)
				}
				return m
			}
			d := tinyData(t, false)
			m := build(d).(*H2GCN)
			if got, want := m.wc.Rows(), 3*(1<<(k+1)-1); got != want {
				t.Fatalf("h2gcn-%d: classifier has %d inputs, want %d", k, got, want)
			}
			want := referenceH2GCN(m, d)
			assertClose(t, "h2gcn logits", mixingLogits(m, 1, false), want, 1e-5)
			mixingCommonChecks(t, "h2gcn", build, want)
			m.cfg.EgoReLU = false // keep the finite differences away from ReLU's kink
			mixingGradCheck(t, "h2gcn", m)
		})
	}
}

func TestH2GCNPresetAndErrors(t *testing.T) {
	reg := NewRegistry()
	for _, k := range []int{1, 2} {
		t.Run(fmt.Sprintf("h2gcn-%d", k), func(t *testing.T) {
			s, err := reg.Get("h2gcn-" + string(rune('0'+k)))
			if err != nil {
				t.Fatal(err)
			}
			c := s.Preset("texas").(*H2GCNConfig)
			if c.Layers != k || c.Hidden != 64 || c.Dropout != 0.5 || c.WeightDecay != 2e-5 || !c.EgoReLU {
				t.Errorf("h2gcn-%d preset = %+v", k, c)
			}
		})
	}
	if c := H2GCNPreset("chameleon", 1); c.EgoReLU || c.Dropout != 0 || c.WeightDecay != 2e-5 || c.Layers != 1 {
		t.Errorf("tuned h2gcn-1 chameleon preset = %+v", c)
	}
	if c := H2GCNPreset("my-graph", 2); !c.EgoReLU || c.Dropout != 0.5 || c.WeightDecay != 2e-5 || c.Hidden != 64 || !c.NormalizeFeatures {
		t.Errorf("untuned h2gcn-2 preset = %+v", c)
	}
	d := tinyData(t, false)
	c := H2GCNPreset("cora", 1)
	c.Layers = 0
	if _, err := NewH2GCN(d, c, rng.New(1)); err == nil {
		t.Error("NewH2GCN accepted 0 rounds")
	}
}
