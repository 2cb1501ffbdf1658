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

// globalParams returns m's parameters by name.
func globalParams(m Model) map[string]*tensor.Dense {
	out := map[string]*tensor.Dense{}
	for _, p := range m.Params() {
		out[p.Name] = p.Value
	}
	return out
}

// globalLogits runs m in evaluation mode.
func globalLogits(m Model) *tensor.Dense {
	tp := autograd.NewTape(tensor.Serial)
	tp.SetNoGrad(true)
	return m.Forward(tp).Logits.Value.Clone()
}

// globalGradCheck: see checkForwardGradients.
func globalGradCheck(t *testing.T, name string, m Model) {
	t.Helper()
	checkForwardGradients(t, name, m, false, nil)
}

func softplus64(x float64) float64 { return math.Log1p(math.Exp(x)) }

func elu64(x float64) float64 {
	if x > 0 {
		return x
	}
	return math.Expm1(x)
}

// ggcnNaive is the authors' dense GGCN (model.py, GGCN and GGCNlayer) in
// float64: n×n matrices, Â with self-loops, the degree term
// Â_ii/max(Â_ij, 1e-9) − 1, the cosine matrix with its diagonal removed.
func ggcnNaive(g *graph.Graph, adj *tensor.CSR, c *GGCNConfig, p map[string]*tensor.Dense) [][]float64 {
	n := g.N
	a := dense64(adj.ToDense())
	deg := make([]float64, n)
	for i := range a {
		deg[i] = 1
		for _, v := range a[i] {
			deg[i] += v
		}
	}
	ahat := make([][]float64, n)
	for i := range ahat {
		ahat[i] = make([]float64, n)
		for j := range ahat[i] {
			if a[i][j] != 0 || i == j {
				ahat[i][j] = 1 / math.Sqrt(deg[i]*deg[j])
			}
		}
	}
	layer := func(l string, h [][]float64) [][]float64 {
		z := addBias(mm(h, dense64(p[l+".lin.W"])), dense64(p[l+".lin.b"]))
		dc, cf, sc := p[l+".deg_coeff"].Data, p[l+".coeff"].Data, p[l+".scale"].Data
		var cs [3]float64
		var zs float64
		for k := range cs {
			cs[k] = math.Exp(float64(cf[k]))
			zs += cs[k]
		}
		out := make([][]float64, n)
		for i := 0; i < n; i++ {
			out[i] = make([]float64, len(z[0]))
			for j := 0; j < n; j++ {
				if i == j || ahat[i][j] == 0 {
					continue
				}
				var dot, ni, nj float64
				for k := range z[i] {
					dot += z[i][k] * z[j][k]
					ni += z[i][k] * z[i][k]
					nj += z[j][k] * z[j][k]
				}
				e := dot / math.Max(math.Sqrt(ni*nj), 1e-9)
				pre := ahat[i][i]/math.Max(ahat[i][j], 1e-9) - 1
				w := e * ahat[i][j] * softplus64(float64(dc[0])*pre+float64(dc[1]))
				coef := cs[1] / zs // negative part
				if w > 0 {
					coef = cs[0] / zs
				}
				for k := range out[i] {
					out[i][k] += coef * w * z[j][k]
				}
			}
			for k := range out[i] {
				out[i][k] = softplus64(float64(sc[0])) * (out[i][k] + cs[2]/zs*z[i][k])
			}
		}
		return out
	}
	apply := func(h [][]float64, f func(float64) float64) [][]float64 {
		out := make([][]float64, len(h))
		for i := range h {
			out[i] = make([]float64, len(h[i]))
			for j, v := range h[i] {
				out[i][j] = f(v)
			}
		}
		return out
	}
	x := dense64(g.X.ToDense())
	prev := apply(addBias(mm(x, dense64(p["input.W"])), dense64(p["input.b"])), elu64)
	h := layer("conv1", x)
	for k := 1; k < c.Layers; k++ {
		h = apply(h, elu64)
		eta := 1.0
		if k > 1 {
			eta = math.Log(c.DecayRate/math.Pow(float64(k+1), c.Exponent) + 1)
		}
		for i := range prev {
			for j := range prev[i] {
				prev[i][j] += eta * h[i][j]
			}
		}
		h = layer("conv"+string(rune('1'+k)), prev)
	}
	return h
}

// ggcnTiny builds a 4-layer GGCN on the tiny graph with the learnable
// scalars moved off their initial values, so that every term is exercised.
func ggcnTiny(t *testing.T, sparse bool) (*GGCN, *GGCNConfig) {
	t.Helper()
	c := GGCNPreset("cornell")
	c.Layers, c.Hidden, c.Dropout, c.DecayRate = 4, 5, 0, 0.8
	m, err := NewGGCN(tinyData(t, sparse), c, rng.New(3))
	if err != nil {
		t.Fatal(err)
	}
	g := rng.New(9)
	for _, l := range m.layers {
		for _, v := range []*autograd.Var{l.deg, l.coeff, l.scale} {
			for k := range v.Value.Data {
				v.Value.Data[k] += g.Uniform(-0.7, 0.7)
			}
		}
	}
	return m, c
}

func TestGGCNForwardMatchesNaive(t *testing.T) {
	m, c := ggcnTiny(t, false)
	want := ggcnNaive(m.data.Graph, m.data.Graph.Adj, c, globalParams(m))
	got := globalLogits(m)
	if got.Rows != 7 || got.Cols != 3 {
		t.Fatalf("logits %s, want 7×3", got.Shape())
	}
	assertClose(t, "ggcn logits", got, want, 1e-4)
	// sparse features give the same logits
	ms, _ := ggcnTiny(t, true)
	assertClose(t, "ggcn logits (sparse X)", globalLogits(ms), dense64(got), 1e-5)
}

// TestGGCNDirected checks that with a directed edge list GGCN propagates
// over it (row i: the nodes i links to), as the naive reference given that
// matrix does, and over the undirected graph with Directed off.
func TestGGCNDirected(t *testing.T) {
	m, c := ggcnTiny(t, false)
	g := m.data.Graph.ShallowCopy()
	out, err := graph.DirectedAdjacency(g.N, []graph.Edge{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {1, 4}, {2, 5}, {5, 5}})
	if err != nil {
		t.Fatal(err)
	}
	g.Out = out
	params := globalParams(m)
	for _, directed := range []bool{true, false} {
		t.Run(fmt.Sprintf("directed=%v", directed), func(t *testing.T) {
			c.Directed = directed
			d := *m.data
			d.Graph = g
			md, err := NewGGCN(&d, c, rng.New(3))
			if err != nil {
				t.Fatal(err)
			}
			copyParams(md.Params(), m.Params())
			adj := g.Adj
			if directed {
				adj = out
			}
			assertClose(t, fmt.Sprintf("ggcn logits (directed %v)", directed), globalLogits(md), ggcnNaive(g, adj, c, params), 1e-4)
			if directed { // the backward passes must not assume a symmetric pattern
				globalGradCheck(t, "ggcn directed", md)
			}
		})
	}
	if !GGCNPreset("chameleon").Directed {
		t.Error("the preset does not follow the authors' directed graphs")
	}
}

func TestGGCNGradient(t *testing.T) {
	m, _ := ggcnTiny(t, false)
	globalGradCheck(t, "ggcn", m)
}

func TestGGCNDropoutDeterministic(t *testing.T) {
	m, _ := ggcnTiny(t, true)
	m.cfg.Dropout = 0.5
	checkTrainingForward(t, m, globalLogits(m).Data, "dropout 0.5")
}

func TestGGCNPresetAndSpec(t *testing.T) {
	c := GGCNPreset("chameleon")
	if c.Layers != 5 || c.Hidden != 32 || c.Dropout != 0.3 || c.WeightDecay != 1e-2 || c.DecayRate != 0.8 || c.LR != 0.01 || c.Exponent != 3 {
		t.Errorf("chameleon preset %+v", c)
	}
	if c := GGCNPreset("squirrel-filtered"); c.Layers != 2 || c.WeightDecay != 4e-3 {
		t.Errorf("squirrel-filtered preset %+v, want squirrel's", c)
	}
	spec, cfg := presetWith(t, "ggcn", "texas", "decay_rate", "0.5")
	if cfg.(*GGCNConfig).DecayRate != 0.5 {
		t.Error("decay_rate option not applied")
	}
	if _, err := spec.New(tinyData(t, false), cfg, rng.New(1)); err != nil {
		t.Fatal(err)
	}
	bad := GGCNPreset("texas")
	bad.Layers = 1
	if _, err := NewGGCN(tinyData(t, false), bad, rng.New(1)); err == nil {
		t.Error("layers=1 accepted")
	}
}

// copyParams copies the values of src into dst, parameter by parameter (same
// model structure).
func copyParams(dst, src []*autograd.Var) {
	for i := range dst {
		dst[i].Value.CopyFrom(src[i].Value)
	}
}
