package models

import (
	"fmt"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit/graphtest"
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

// TestLINKXTrainingRowsMatchWholeGraph: a training step computing only the
// training nodes' rows gives the loss, the training rows' logits and every
// parameter's gradient of the step over the whole graph, bit for bit, with
// dense and sparse features, one and two final layers (dropout between
// them), at 1 and 3 threads; evaluation still computes every row.
func TestLINKXTrainingRowsMatchWholeGraph(t *testing.T) {
	for _, sparse := range []bool{false, true} {
		for _, layers := range []int{1, 2} {
			for _, threads := range []int{1, 3} {
				t.Run(fmt.Sprintf("sparse=%v/layers=%d/threads=%d", sparse, layers, threads), func(t *testing.T) {
					g := graphtest.Toy(t, 300, sparse, 5)
					d := NewData(g, g.Splits[0], false)
					c := LINKXPreset("chameleon")
					c.Hidden, c.Layers = 32, layers
					step := func(whole bool) [][]float32 {
						m, err := NewLINKX(d, c, rng.New(9))
						if err != nil {
							t.Fatal(err)
						}
						tp := autograd.NewTape(tensor.Exec{Threads: threads})
						tp.Training, tp.RNG = true, rng.New(99)
						var out Output
						if whole {
							out = m.forwardAll(tp)
						} else {
							out = m.Forward(tp)
							if len(m.rows.rows) != len(d.Train) || len(d.Train) == g.N {
								t.Fatalf("the training rows' path not taken: %d rows for %d training nodes of %d", len(m.rows.rows), len(d.Train), g.N)
							}
						}
						loss := tp.CrossEntropy(out.Logits, g.Y, d.Train)
						tp.Backward(loss)
						res := [][]float32{{loss.Scalar()}}
						for _, i := range d.Train {
							k := out.Logits.Cols()
							res = append(res, out.Logits.Value.Data[int(i)*k:(int(i)+1)*k])
						}
						for _, p := range m.Params() {
							res = append(res, p.Grad.Data)
						}
						return res
					}
					want, got := step(true), step(false)
					for i := range want {
						for j := range want[i] {
							if math.Float32bits(got[i][j]) != math.Float32bits(want[i][j]) {
								t.Fatalf("part %d element %d: %v, whole graph %v", i, j, got[i][j], want[i][j])
							}
						}
					}
				})
			}
		}
	}
}
