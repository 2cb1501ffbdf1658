package models

import (
	"fmt"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/rng"
)

// appnpReference is APPNP's forward pass in float64: the MLP, then K steps of
// Z ← (1−α)ÂZ + αH.
func appnpReference(m *APPNP, x [][]float64) [][]float64 {
	h := x
	for l, lin := range m.ls {
		if l > 0 {
			h = classicMap(h, classicReLU)
		}
		h = classicAddRow(classicMatMul(h, classicMat(lin.W.Value)), classicMat(lin.B.Value)[0])
	}
	a, alpha := classicAHat(), m.cfg.Alpha
	z := h
	for k := 0; k < m.cfg.K; k++ {
		az := classicMatMul(a, z)
		for i := range az {
			for c := range az[i] {
				az[i][c] = (1-alpha)*az[i][c] + alpha*h[i][c]
			}
		}
		z = az
	}
	return z
}

func TestAPPNPForwardMatchesReference(t *testing.T) {
	cases := []struct {
		layers, k int
		alpha     float64
	}{{2, 10, 0.1}, {1, 3, 0.5}, {3, 0, 0.1}, {2, 5, 1}}
	for _, sparse := range []bool{false, true} {
		for _, tc := range cases {
			t.Run(fmt.Sprintf("sparse=%v layers=%d k=%d alpha=%g", sparse, tc.layers, tc.k, tc.alpha), func(t *testing.T) {
				d := classicData(t, sparse)
				cfg := APPNPPreset("texas")
				cfg.Layers, cfg.Hidden, cfg.K, cfg.Alpha = tc.layers, 5, tc.k, tc.alpha
				m, err := NewAPPNP(d, cfg, rng.New(11))
				if err != nil {
					t.Fatal(err)
				}
				classicCompare(t, "appnp", classicForward(m), appnpReference(m, classicX(d)))
			})
		}
	}
}

func TestAPPNPGradient(t *testing.T) {
	cfg := APPNPPreset("texas")
	cfg.Hidden, cfg.K = 3, 4
	m, err := NewAPPNP(classicData(t, true), cfg, rng.New(12))
	if err != nil {
		t.Fatal(err)
	}
	classicGradCheck(t, "appnp", m, nil)
}

// With edge dropout the propagation matrix is no longer symmetric: the
// gradient check in training mode (fixed masks) catches a backward pass that
// would use Â in place of its transpose.
func TestAPPNPEdgeDropoutGradient(t *testing.T) {
	cfg := APPNPPreset("texas")
	cfg.Hidden, cfg.K, cfg.Dropout, cfg.EdgeDropout = 3, 3, 0, 0.5
	m, err := NewAPPNP(classicData(t, false), cfg, rng.New(13))
	if err != nil {
		t.Fatal(err)
	}
	classicGradCheck(t, "appnp edge dropout", m, func(tp *autograd.Tape) {
		tp.Training, tp.RNG = true, rng.New(21)
	})
	checkTrainingForward(t, m, classicForward(m).Data, "edge dropout 0.5")
}

func TestAPPNPSpec(t *testing.T) {
	classicSpecCheck(t, "appnp", "k", "alpha", "edge_dropout")
	if c := APPNPPreset("cora"); c.K != 10 || c.Alpha != 0.1 || c.Hidden != 64 || c.Dropout != 0.5 {
		t.Errorf("preset %+v", c)
	}
}
