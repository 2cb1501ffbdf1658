package models

import (
	"fmt"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/rng"
)

// gprgnnReference is a naive float64 GPRGNN: a 2-layer MLP, then
// Σ_k γ_k Âᵏ H with Â = D̃^{-1/2}(A+I)D̃^{-1/2} built here from the 0/1
// adjacency.
func gprgnnReference(m Model, d *Data) [][]float64 {
	p := spectralParams(m)
	h := spectralLinear(p, "lin2", spectralReLU(spectralLinear(p, "lin1", dense64(d.X.ToDense()))))
	a := dense64(d.Graph.Adj.ToDense())
	n := len(a)
	deg := make([]float64, n)
	for i := range a {
		a[i][i]++
		for _, v := range a[i] {
			deg[i] += v
		}
	}
	for i := range a {
		for j := range a[i] {
			a[i][j] /= math.Sqrt(deg[i] * deg[j])
		}
	}
	gamma := p["prop.gamma"][0]
	z := spectralZeros(n, len(h[0]))
	x := h
	for k, g := range gamma {
		if k > 0 {
			x = mm(a, x)
		}
		for i := range z {
			for j := range z[i] {
				z[i][j] += g * x[i][j]
			}
		}
	}
	return z
}

func TestGPRGNNForwardMatchesNaive(t *testing.T) {
	for _, k := range []int{0, 1, 4} {
		t.Run(fmt.Sprintf("k=%d", k), func(t *testing.T) {
			spectralCheckModel(t, "gprgnn", true, func(d *Data) Model {
				c := GPRGNNPreset("chameleon")
				c.Hidden, c.K, c.Alpha, c.Dropout, c.DPRate = 5, k, 0.3, 0.2, 0.4
				m, err := NewGPRGNN(d, c, rng.New(7))
				if err != nil {
					t.Fatal(err)
				}
				// signed coefficients, as learnt γ often are on heterophilous graphs
				for i := range m.gamma.Value.Data {
					m.gamma.Value.Data[i] *= float32(1 - 2*(i%2))
				}
				return m
			}, gprgnnReference)
		})
	}
}

func TestGPRGNNPPRInit(t *testing.T) {
	cases := []struct {
		k     int
		alpha float64
		want  []float64
	}{
		{3, 0.1, []float64{0.1, 0.09, 0.081, 0.729}},
		{3, 1.0, []float64{1, 0, 0, 0}},
		{2, 0.0, []float64{0, 0, 1}},
		{0, 0.5, []float64{1}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("K=%d alpha=%g", c.k, c.alpha), func(t *testing.T) {
			got := gprPPR(c.k, c.alpha).Data
			for i, w := range c.want {
				if math.Abs(float64(got[i])-w) > 1e-7 {
					t.Errorf("K=%d α=%g: γ[%d] = %g, want %g", c.k, c.alpha, i, got[i], w)
				}
			}
		})
	}
	d := spectralData(t, false)
	if _, err := NewGPRGNN(d, &GPRGNNConfig{Common: Common{Hidden: 4, Layers: 2}, K: -1}, rng.New(1)); err == nil {
		t.Error("negative K accepted")
	}
}

func TestGPRGNNSpec(t *testing.T) {
	spectralSpecCheck(t, "gprgnn", "k", "alpha", "dprate", "hidden", "lr")
	c := GPRGNNPreset("squirrel")
	if c.LR != 0.05 || c.Alpha != 0 || c.WeightDecay != 0 || c.DPRate != 0.7 || c.K != 10 || c.Hidden != 64 {
		t.Errorf("squirrel preset %+v", *c)
	}
	if w, cn := GPRGNNPreset("wisconsin"), GPRGNNPreset("cornell"); *w != *cn {
		t.Errorf("wisconsin preset %+v differs from cornell's %+v", *w, *cn)
	}
}
