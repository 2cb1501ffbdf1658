package models

import (
	"fmt"
	"testing"

	"github.com/pcgcn/pcgcn/rng"
)

// linkxReference is a naive float64 LINKX: h_A from the raw 0/1 adjacency
// rows, h_X from the features, ReLU(W[h_A ‖ h_X] + b + h_A + h_X), then the
// final MLP.
func linkxReference(m Model, d *Data) [][]float64 {
	lx := m.(*LINKX)
	p := spectralParams(m)
	ha := spectralLinear(p, "mlpA", dense64(d.Graph.Adj.ToDense()))
	hx := spectralLinear(p, "mlpX", dense64(d.X.ToDense()))
	cat := make([][]float64, len(ha))
	for i := range ha {
		cat[i] = append(append([]float64{}, ha[i]...), hx[i]...)
	}
	h := spectralLinear(p, "W", cat)
	for i := range h {
		for j := range h[i] {
			h[i][j] += ha[i][j] + hx[i][j]
		}
	}
	h = spectralReLU(h)
	for l := 1; l <= len(lx.fin); l++ {
		if l > 1 {
			h = spectralReLU(h)
		}
		h = spectralLinear(p, fmt.Sprintf("final%d", l), h)
	}
	return h
}

func TestLINKXForwardMatchesNaive(t *testing.T) {
	for _, layers := range []int{1, 2, 3} {
		t.Run(fmt.Sprintf("%d layers", layers), func(t *testing.T) {
			spectralCheckModel(t, "linkx", layers > 1, func(d *Data) Model {
				c := LINKXPreset("chameleon")
				c.Hidden, c.Layers, c.Dropout = 5, layers, 0.3
				m, err := NewLINKX(d, c, rng.New(9))
				if err != nil {
					t.Fatal(err)
				}
				return m
			}, linkxReference)
		})
	}
}

func TestLINKXSpec(t *testing.T) {
	spectralSpecCheck(t, "linkx", "hidden", "layers", "dropout", "lr", "weight_decay")
	if c := LINKXPreset("my-graph"); c.NormalizeFeatures || c.Hidden != 64 || c.LR != 0.01 || c.Layers != 1 {
		t.Errorf("untuned preset %+v", *c)
	}
	if c := LINKXPreset("actor"); c.NormalizeFeatures || c.Hidden != 512 || c.LR != 0.05 || c.Layers != 1 {
		t.Errorf("actor preset (tuned) %+v", *c)
	}
	d := spectralData(t, false)
	if _, err := NewLINKX(d, &LINKXConfig{Common: Common{Hidden: 4, Layers: 1, Dropout: 1}}, rng.New(1)); err == nil {
		t.Error("dropout 1 accepted")
	}
}
