package models

import (
	"fmt"
	"testing"

	"github.com/pcgcn/pcgcn/rng"
)

// sageReference is GraphSAGE's forward pass in float64 with plain loops.
func sageReference(m *SAGE, x [][]float64) [][]float64 {
	nb := classicNeighbours()
	h := x
	for l, conv := range m.convs {
		if l > 0 {
			h = classicMap(h, classicReLU)
		}
		mean := make([][]float64, len(h))
		for i := range h {
			mean[i] = make([]float64, len(h[i]))
			for _, j := range nb[i] {
				for c, v := range h[j] {
					mean[i][c] += v / float64(len(nb[i]))
				}
			}
		}
		agg := classicAddRow(classicMatMul(mean, classicMat(conv.Neigh.W.Value)), classicMat(conv.Neigh.B.Value)[0])
		self := classicMatMul(h, classicMat(conv.Self.W.Value))
		for i := range agg {
			for c := range agg[i] {
				agg[i][c] += self[i][c]
			}
		}
		h = agg
	}
	return h
}

// texasSAGE returns GraphSAGE with Texas's preset of the given depth and
// width on the classic test graph (features sparse or dense), seeded seed,
// and its data.
func texasSAGE(t *testing.T, sparse bool, layers, hidden int, seed uint64) (*SAGE, *Data) {
	t.Helper()
	d := classicData(t, sparse)
	cfg := SAGEPreset("texas")
	cfg.Layers, cfg.Hidden = layers, hidden
	m, err := NewSAGE(d, cfg, rng.New(seed))
	if err != nil {
		t.Fatal(err)
	}
	return m, d
}

func TestSAGEForwardMatchesReference(t *testing.T) {
	for _, sparse := range []bool{false, true} {
		for _, layers := range []int{1, 2, 3} {
			t.Run(fmt.Sprintf("sparse=%v layers=%d", sparse, layers), func(t *testing.T) {
				m, d := texasSAGE(t, sparse, layers, 5, 7)
				classicCompare(t, "sage", classicForward(m), sageReference(m, classicX(d)))
			})
		}
	}
}

func TestSAGEIsolatedNodeUsesOnlyItself(t *testing.T) {
	m, d := texasSAGE(t, false, 1, SAGEPreset("texas").Hidden, 7)
	// node 5 has no neighbour: logits = x₅·W_self + b_neigh
	got := classicForward(m).Row(5)
	x5 := classicX(d)[5:6]
	want := classicAddRow(classicMatMul(x5, classicMat(m.convs[0].Self.W.Value)), classicMat(m.convs[0].Neigh.B.Value)[0])[0]
	for c, w := range want {
		if d := float64(got[c]) - w; d > 1e-6 || d < -1e-6 {
			t.Errorf("isolated node logit %d = %g, want %g", c, got[c], w)
		}
	}
}

func TestSAGEGradient(t *testing.T) {
	m, _ := texasSAGE(t, true, SAGEPreset("texas").Layers, 3, 8)
	classicGradCheck(t, "sage", m, nil)
	if n := len(m.Params()); n != 6 {
		t.Errorf("%d parameters, want 6 (W_neigh, b, W_self per layer)", n)
	}
}

func TestSAGESpec(t *testing.T) {
	classicSpecCheck(t, "sage", "hidden", "layers")
}
