package models

import (
	"fmt"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// spectralData returns the tiny test graph's data, with its features stored
// sparse when sparse is set (a few entries zeroed first so that the sparse
// storage is really sparse; the dense variant has the same zeros).
func spectralData(t *testing.T, sparse bool) *Data {
	t.Helper()
	g := tinyGraph(t)
	x := g.X.Dense.Clone()
	for i := range x.Data {
		if i%3 == 1 {
			x.Data[i] = 0
		}
	}
	g.X = graph.Features{Dense: x}
	if sparse {
		g.X = graph.Features{Sparse: tensor.DenseToCSR(x)}
	}
	return NewData(g, g.Splits[0], false)
}

// spectralParams returns the model's parameters as float64 matrices by name.
func spectralParams(m Model) map[string][][]float64 {
	out := map[string][][]float64{}
	for _, p := range m.Params() {
		if _, dup := out[p.Name]; dup {
			panic("duplicate parameter name " + p.Name)
		}
		out[p.Name] = dense64(p.Value)
	}
	return out
}

// spectralLinear returns x·W + b for the parameters named prefix.W, prefix.b.
func spectralLinear(p map[string][][]float64, prefix string, x [][]float64) [][]float64 {
	return addBias(mm(x, p[prefix+".W"]), p[prefix+".b"])
}

func spectralReLU(a [][]float64) [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		out[i] = make([]float64, len(a[i]))
		for j, v := range a[i] {
			out[i][j] = math.Max(v, 0)
		}
	}
	return out
}

func spectralZeros(r, c int) [][]float64 {
	out := make([][]float64, r)
	for i := range out {
		out[i] = make([]float64, c)
	}
	return out
}

// spectralLogits runs an evaluation forward pass (no dropout).
func spectralLogits(m Model, threads int) *tensor.Dense {
	tp := autograd.NewTape(tensor.Exec{Threads: threads})
	tp.SetNoGrad(true)
	return m.Forward(tp).Logits.Value.Clone()
}

// spectralTrainLogits runs a training forward pass (dropout on) with a fixed
// seed.
func spectralTrainLogits(m Model, threads int) *tensor.Dense {
	tp := autograd.NewTape(tensor.Exec{Threads: threads})
	tp.Training, tp.RNG = true, rng.New(99)
	return m.Forward(tp).Logits.Value.Clone()
}

// spectralGradCheck: see checkForwardGradients.
func spectralGradCheck(t *testing.T, name string, m Model) {
	t.Helper()
	checkForwardGradients(t, name, m, false, nil)
}

// spectralCheckModel runs the checks shared by the three models: the forward
// pass matches want, the sparse-feature model (same seed) gives the same
// logits, dropout in training is the same whatever the thread count, and the
// gradient passes a finite-difference check. hasDropout says whether the
// model applies dropout anywhere (then training logits must differ).
func spectralCheckModel(t *testing.T, name string, hasDropout bool, build func(d *Data) Model, ref func(m Model, d *Data) [][]float64) {
	t.Helper()
	d := spectralData(t, false)
	m := build(d)
	want := ref(m, d)
	got := spectralLogits(m, 1)
	assertClose(t, name+" logits", got, want, 1e-5)

	ms := build(spectralData(t, true))
	assertClose(t, name+" sparse-feature logits", spectralLogits(ms, 2), want, 1e-5)

	a, b := spectralTrainLogits(m, 1), spectralTrainLogits(m, 3)
	for i := range a.Data {
		if a.Data[i] != b.Data[i] {
			t.Fatalf("%s: training forward differs between 1 and 3 threads at %d: %g vs %g", name, i, a.Data[i], b.Data[i])
		}
	}
	// the training nodes' rows: a row-wise model (LINKX) computes only
	// those in a training step
	same, c := true, a.Cols
	for _, i := range d.Train {
		for j := range c {
			if a.Data[int(i)*c+j] != got.Data[int(i)*c+j] {
				same = false
			}
		}
	}
	if same == hasDropout {
		t.Errorf("%s: training logits equal to evaluation logits: %v, want %v", name, same, !hasDropout)
	}
	spectralGradCheck(t, name, m)
}

// spectralSpecCheck checks the registry entry: presets of the right type with
// a positive learning rate for every dataset, and the option keys.
func spectralSpecCheck(t *testing.T, name string, keys ...string) {
	t.Helper()
	spec, err := NewRegistry().Get(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, ds := range []string{"cora", "citeseer", "pubmed", "chameleon", "squirrel", "actor", "cornell",
		"texas", "wisconsin", "chameleon-filtered", "squirrel-filtered", "minesweeper", "tolokers", "unknown"} {
		cfg := spec.Preset(ds)
		if b := cfg.Base(); b.LR <= 0 || b.Hidden < 1 || b.Layers < 1 {
			t.Errorf("%s preset for %s: %+v", name, ds, *b)
		}
	}
	have := map[string]bool{}
	for _, k := range OptionKeys(spec.Preset("cora")) {
		have[k] = true
	}
	for _, k := range keys {
		if !have[k] {
			t.Errorf("%s has no option %q", name, k)
		}
	}
	d := spectralData(t, false)
	m, err := spec.New(d, spec.Preset("texas"), rng.New(1))
	if err != nil {
		t.Fatal(err)
	}
	if out := m.Forward(autograd.NewTape(tensor.Serial)); out.Logits.Rows() != 7 || out.Logits.Cols() != 3 {
		t.Errorf("%s logits are %s, want 7×3", name, out.Logits.Value.Shape())
	}
	if _, err := spec.New(d, &MLPConfig{}, rng.New(1)); err == nil {
		t.Errorf("%s accepted a config of another model", name)
	}
}

// fagcnReference is a naive float64 FAGCN: per-edge gates from the
// concatenated endpoint features, tanh, 1/√(d_i d_j), ε-residual to the raw
// representation.
func fagcnReference(m Model, d *Data) [][]float64 {
	c := m.(*FAGCN).cfg
	p := spectralParams(m)
	raw := spectralReLU(spectralLinear(p, "t1", dense64(d.X.ToDense())))
	a := dense64(d.Graph.Adj.ToDense())
	n, hid := len(a), len(raw[0])
	deg := make([]float64, n)
	for i := range a {
		for _, v := range a[i] {
			if v != 0 {
				deg[i]++
			}
		}
		deg[i] = math.Max(deg[i], 1)
	}
	h := raw
	for l := 1; l <= c.Layers; l++ {
		gw := p[fmt.Sprintf("layer%d.gate.W", l)]
		gb := p[fmt.Sprintf("layer%d.gate.b", l)][0][0]
		z := spectralZeros(n, hid)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if a[i][j] == 0 {
					continue
				}
				s := gb
				for k := 0; k < hid; k++ {
					s += gw[k][0]*h[i][k] + gw[k][1]*h[j][k]
				}
				coef := math.Tanh(s) / math.Sqrt(deg[i]*deg[j])
				for k := 0; k < hid; k++ {
					z[i][k] += coef * h[j][k]
				}
			}
		}
		for i := range z {
			for k := range z[i] {
				z[i][k] += c.Eps * raw[i][k]
			}
		}
		h = z
	}
	return spectralLinear(p, "t2", h)
}

func TestFAGCNForwardMatchesNaive(t *testing.T) {
	for _, layers := range []int{1, 3} {
		t.Run(fmt.Sprintf("%d layers", layers), func(t *testing.T) {
			spectralCheckModel(t, "fagcn", true, func(d *Data) Model {
				c := FAGCNPreset("chameleon")
				c.Hidden, c.Layers, c.Eps, c.Dropout = 5, layers, 0.4, 0.3
				m, err := NewFAGCN(d, c, rng.New(5))
				if err != nil {
					t.Fatal(err)
				}
				// larger gate weights so that tanh is far from linear and signs mix
				for _, g := range m.gates {
					for i := range g.Value.Data {
						g.Value.Data[i] *= 4
					}
				}
				return m
			}, fagcnReference)
		})
	}
}

func TestFAGCNInitialisation(t *testing.T) {
	d := spectralData(t, false)
	c := FAGCNPreset("texas")
	c.Hidden = 200
	m, err := NewFAGCN(d, c, rng.New(1))
	if err != nil {
		t.Fatal(err)
	}
	// Xavier-normal with gain 1.414 over fan_in 2·hidden and fan_out 1.
	w := m.gates[0].Value.Data
	var ss float64
	for _, v := range w {
		ss += float64(v) * float64(v)
	}
	std, want := math.Sqrt(ss/float64(len(w))), 1.414*math.Sqrt(2.0/401)
	if math.Abs(std-want) > 0.1*want {
		t.Errorf("gate weight std %.4f, want ≈ %.4f", std, want)
	}
	if b := float64(m.gateB[0].Value.Data[0]); math.Abs(b) > 1/math.Sqrt(400) {
		t.Errorf("gate bias %g outside U(±1/√400)", b)
	}
	if _, err := NewFAGCN(d, &FAGCNConfig{Common: Common{Hidden: 4}}, rng.New(1)); err == nil {
		t.Error("zero layers accepted")
	}
}

func TestFAGCNEdgeNorm(t *testing.T) {
	// path 0-1-2 plus isolated 3: d = 1, 2, 1, 0→1
	adj, err := graph.UndirectedAdjacency(4, []graph.Edge{{0, 1}, {1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	got := fagcnEdgeNorm(adj).Data
	want := []float32{float32(1 / math.Sqrt2), float32(1 / math.Sqrt2), float32(1 / math.Sqrt2), float32(1 / math.Sqrt2)}
	if len(got) != len(want) {
		t.Fatalf("got %d entries, want %d", len(got), len(want))
	}
	for k := range want {
		if math.Abs(float64(got[k]-want[k])) > 1e-7 {
			t.Errorf("norm[%d] = %g, want %g", k, got[k], want[k])
		}
	}
}

func TestFAGCNSpec(t *testing.T) {
	spectralSpecCheck(t, "fagcn", "eps", "hidden", "layers", "dropout")
	if c := FAGCNPreset("chameleon"); c.Eps != 0.3 || c.Hidden != 32 || c.WeightDecay != 5e-5 {
		t.Errorf("chameleon preset %+v", *c)
	}
}
