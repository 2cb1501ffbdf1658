package models

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// inverse64 inverts a small matrix by Gauss–Jordan elimination with partial
// pivoting.
func inverse64(a [][]float64) [][]float64 {
	k := len(a)
	m := make([][]float64, k)
	for i := range m {
		m[i] = make([]float64, 2*k)
		copy(m[i], a[i])
		m[i][k+i] = 1
	}
	for c := 0; c < k; c++ {
		p := c
		for r := c + 1; r < k; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		m[c], m[p] = m[p], m[c]
		piv := m[c][c]
		for j := range m[c] {
			m[c][j] /= piv
		}
		for r := 0; r < k; r++ {
			if r != c {
				f := m[r][c]
				for j := range m[r] {
					m[r][j] -= f * m[c][j]
				}
			}
		}
	}
	out := make([][]float64, k)
	for i := range out {
		out[i] = m[i][k:]
	}
	return out
}

// lin64 returns s·a + t·b element-wise (b may be nil).
func lin64(s float64, a [][]float64, u float64, b [][]float64) [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		out[i] = make([]float64, len(a[i]))
		for j := range a[i] {
			out[i][j] = s * a[i][j]
			if b != nil {
				out[i][j] += u * b[i][j]
			}
		}
	}
	return out
}

// glognnNaive is the authors' MLP_NORM with norm_func1 and order_func2
// (small-scale/main.py) in float64, written as they compute it: the n×n
// row-normalised P = D̃⁻¹(A+I) and res = (1−γ)ϵH − (1−γ)ϵ²H·M⁻¹HᵀH.
func glognnNaive(g *graph.Graph, c *GloGNNConfig, p map[string]*tensor.Dense) [][]float64 {
	n := g.N
	a := dense64(g.Adj.ToDense())
	pm := make([][]float64, n)
	for i := range pm {
		pm[i] = make([]float64, n)
		deg := 1.0
		for _, v := range a[i] {
			deg += v
		}
		for j := range pm[i] {
			if a[i][j] != 0 || i == j {
				pm[i][j] = 1 / deg
			}
		}
	}
	xX := addBias(mm(dense64(g.X.ToDense()), dense64(p["fc1.W"])), dense64(p["fc1.b"]))
	var xA [][]float64
	if c.Delta != 1 {
		xA = addBias(mm(pm, dense64(p["fc3.W"])), dense64(p["fc3.b"]))
	} else {
		xA = lin64(0, xX, 0, nil)
	}
	h := lin64(c.Delta, xX, 1-c.Delta, xA)
	for i := range h {
		for j := range h[i] {
			h[i][j] = math.Max(h[i][j], 0)
		}
	}
	h0 := addBias(mm(h, dense64(p["fc2.W"])), dense64(p["fc2.b"]))
	w := p["orders_weight"].Data
	x := h0
	coe, coe1 := 1/(c.Alpha+c.Beta), 1-c.Gamma
	coe2 := 1 / coe1
	for l := 0; l < c.NormLayers; l++ {
		res := mm(transpose(x), x)
		mat := lin64(coe, res, 0, nil)
		for i := range mat {
			mat[i][i] += coe2 * coe2
		}
		res = mm(inverse64(mat), res)
		res = lin64(coe1*coe, x, -coe1*coe*coe, mm(x, res))
		tmp := mm(transpose(x), res)
		pk := res
		sum := lin64(0, res, 0, nil)
		for k := 0; k < c.Orders; k++ {
			pk = mm(pm, pk)
			sum = lin64(1, sum, float64(w[k]), pk)
		}
		out := lin64(coe1, mm(x, tmp), c.Beta, sum)
		out = lin64(1, out, -c.Gamma*coe1, mm(h0, tmp))
		x = lin64(1, out, c.Gamma, h0)
	}
	return x
}

// glognnTiny builds GloGNN on the tiny graph with the given switches and
// random order weights.
func glognnTiny(t *testing.T, sparse bool, alpha, beta, gamma, delta float64, layers, orders int) (*GloGNN, *GloGNNConfig) {
	t.Helper()
	c := GloGNNPreset("cornell")
	c.Hidden, c.Dropout = 5, 0
	c.Alpha, c.Beta, c.Gamma, c.Delta, c.NormLayers, c.Orders = alpha, beta, gamma, delta, layers, orders
	m, err := NewGloGNN(tinyData(t, sparse), c, rng.New(4))
	if err != nil {
		t.Fatal(err)
	}
	g := rng.New(8)
	for k := range m.order.Value.Data {
		m.order.Value.Data[k] = g.Uniform(-1, 1)
	}
	return m, c
}

func TestGloGNNForwardMatchesNaive(t *testing.T) {
	cases := []struct {
		name                      string
		alpha, beta, gamma, delta float64
		layers, orders            int
	}{
		{"all terms", 0.7, 1.5, 0.3, 0.6, 2, 3},
		{"cornell-like", 0, 1, 0, 1, 2, 1},
		{"chameleon-like", 0, 1, 0, 0, 2, 1},
		{"cora-like", 77, 1000, 0.8, 0.9, 2, 6},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, c := glognnTiny(t, false, tc.alpha, tc.beta, tc.gamma, tc.delta, tc.layers, tc.orders)
			want := glognnNaive(m.data.Graph, c, globalParams(m))
			got := globalLogits(m)
			if got.Rows != 7 || got.Cols != 3 {
				t.Fatalf("%s: logits %s, want 7×3", tc.name, got.Shape())
			}
			assertClose(t, "glognn logits, "+tc.name, got, want, 1e-4)
			ms, _ := glognnTiny(t, true, tc.alpha, tc.beta, tc.gamma, tc.delta, tc.layers, tc.orders)
			assertClose(t, "glognn logits (sparse X), "+tc.name, globalLogits(ms), dense64(got), 1e-5)
		})
	}
}

func TestGloGNNGradient(t *testing.T) {
	m, _ := glognnTiny(t, false, 0.7, 1.5, 0.3, 0.6, 2, 3)
	globalGradCheck(t, "glognn", m)
}

func TestGloGNNPresetAndSpec(t *testing.T) {
	c := GloGNNPreset("wisconsin")
	if c.Hidden != 64 || c.LR != 0.01 || c.Dropout != 0 || c.WeightDecay != 1e-5 || c.Alpha != 0.5 || c.Beta != 0.5 ||
		c.Gamma != 0 || c.Delta != 1 || c.NormLayers != 3 || c.Orders != 5 || !c.NormalizeFeatures {
		t.Errorf("wisconsin preset %+v", c)
	}
	if c := GloGNNPreset("film"); c.Beta != 1000 || c.Orders != 6 {
		t.Errorf("film preset %+v, want actor's", c)
	}
	spec, cfg := presetWith(t, "glognn", "chameleon", "orders", "3")
	m, err := spec.New(tinyData(t, false), cfg, rng.New(1))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, p := range m.Params() {
		names[p.Name] = true
	}
	if !names["fc3.W"] || !names["orders_weight"] || len(m.(*GloGNN).order.Value.Data) != 3 {
		t.Errorf("chameleon (δ = 0) model params %v", names)
	}
	for name, bad := range map[string]func(c *GloGNNConfig){
		"gamma=1":      func(c *GloGNNConfig) { c.Gamma = 1 },
		"alpha=beta=0": func(c *GloGNNConfig) { c.Alpha, c.Beta = 0, 0 },
		"orders=0":     func(c *GloGNNConfig) { c.Orders = 0 },
		"layers=3":     func(c *GloGNNConfig) { c.Layers = 3 },
	} {
		t.Run(name, func(t *testing.T) {
			c := GloGNNPreset("texas")
			bad(c)
			if _, err := NewGloGNN(tinyData(t, false), c, rng.New(1)); err == nil {
				t.Errorf("invalid config %+v accepted", c)
			}
		})
	}
}
