package models

import (
	"fmt"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/rng"
)

// referenceGCNII is a naive float64 GCNII (dropout off).
func referenceGCNII(m *GCNII, d *Data) [][]float64 {
	c := m.cfg
	n := d.Graph.N
	a := selfLoopNorm64(d.Graph.Adj)
	h0 := mixingReLU(addBias(mm(dense64(d.X.ToDense()), dense64(m.in.W.Value)), dense64(m.in.B.Value)))
	h := h0
	for l := 1; l <= c.Layers; l++ {
		beta := math.Log(c.Lambda/float64(l) + 1)
		w := dense64(m.ws[0].Value)
		if !c.ShareWeights {
			w = dense64(m.ws[l-1].Value)
		}
		hi := mm(a, h)
		s := make([][]float64, n)
		for i := range s {
			s[i] = make([]float64, c.Hidden)
			for j := range s[i] {
				s[i][j] = (1-c.Alpha)*hi[i][j] + c.Alpha*h0[i][j]
			}
		}
		support := s
		if c.Variant == "gcnii*" {
			support = mixingConcat(hi, h0)
		}
		sw := mm(support, w)
		h = make([][]float64, n)
		for i := range h {
			h[i] = make([]float64, c.Hidden)
			for j := range h[i] {
				h[i][j] = math.Max(beta*sw[i][j]+(1-beta)*s[i][j], 0)
			}
		}
	}
	return addBias(mm(h, dense64(m.out.W.Value)), dense64(m.out.B.Value))
}

func TestGCNIIForward(t *testing.T) {
	for _, tc := range []struct {
		variant string
		share   bool
	}{{"gcnii", false}, {"gcnii*", false}, {"gcnii", true}} {
		t.Run(fmt.Sprintf("%s share=%v", tc.variant, tc.share), func(t *testing.T) {
			build := func(d *Data) Model {
				c := GCNIIPreset("texas")
				c.Hidden, c.Layers, c.Alpha, c.Lambda, c.Variant, c.ShareWeights = 4, 3, 0.3, 1.5, tc.variant, tc.share
				m, err := NewGCNII(d, c, rng.New(8))
				if err != nil {
					t.Fatal(err)
				}
				return m
			}
			name := tc.variant
			if tc.share {
				name += " shared"
			}
			d := tinyData(t, false)
			m := build(d).(*GCNII)
			wantW := 3
			if tc.share {
				wantW = 1
			}
			if len(m.ws) != wantW || m.ws[0].Rows() != map[string]int{"gcnii": 4, "gcnii*": 8}[tc.variant] {
				t.Fatalf("%s: %d conv weights of %s", name, len(m.ws), m.ws[0].Value.Shape())
			}
			want := referenceGCNII(m, d)
			assertClose(t, name+" logits", mixingLogits(m, 1, false), want, 1e-5)
			mixingCommonChecks(t, name, build, want)
			mixingGradCheck(t, name, m)
		})
	}
}

func TestGCNIIPresets(t *testing.T) {
	for ds, want := range map[string][4]float64{
		"cora": {64, 0.2, 0.5, 1e-4}, "chameleon": {8, 0.2, 1.5, 5e-4}, "texas": {32, 0.5, 1.5, 1e-4},
		"squirrel": {8, 0.2, 1.5, 5e-4},
	} {
		t.Run(ds, func(t *testing.T) {
			c := GCNIIPreset(ds)
			if c.Layers != int(want[0]) || c.Alpha != want[1] || c.Lambda != want[2] || c.WeightDecay != want[3] ||
				c.Hidden != 64 || c.Dropout != 0.5 || c.LR != 0.01 || c.Variant != "gcnii*" {
				t.Errorf("GCNIIPreset(%q) = %+v", ds, c)
			}
		})
	}
	// Actor: GGCN's rerun setting of the GCNII code on film
	if a := GCNIIPreset("actor"); a.Layers != 2 || a.Hidden != 16 || a.Dropout != 0 || a.WeightDecay != 1e-3 ||
		a.Alpha != 0.5 || a.Lambda != 0.5 || a.Variant != "gcnii*" {
		t.Errorf("GCNIIPreset(\"actor\") = %+v", a)
	}
	c := GCNIIPreset("cora")
	c.Variant = "gcnii2"
	if _, err := NewGCNII(tinyData(t, false), c, rng.New(1)); err == nil {
		t.Error("NewGCNII accepted an unknown variant")
	}
}
