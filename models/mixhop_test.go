package models

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// referenceMixHop is a naive float64 MixHop (dropout off).
func referenceMixHop(m *MixHop, d *Data) (logits [][]float64, aux float64) {
	c := m.cfg
	n := d.Graph.N
	a := selfLoopNorm64(d.Graph.Adj)
	h := dense64(d.X.ToDense())
	if c.L2Normalize {
		for i := range h {
			var ss float64
			for _, v := range h[i] {
				ss += v * v
			}
			for j := range h[i] {
				h[i][j] /= math.Sqrt(ss)
			}
		}
	}
	for l, layer := range m.ws {
		var blocks [][][]float64
		for k, w := range layer {
			z := mm(h, dense64(w.Value))
			for range m.powers[k] {
				z = mm(a, z)
			}
			blocks = append(blocks, z)
		}
		h = mixingConcat(blocks...)
		if l == len(m.ws)-1 {
			break
		}
		if c.BatchNorm {
			b := dense64(m.shifts[l].Value)
			for j := range h[0] {
				var mu, v float64
				for i := range h {
					mu += h[i][j]
				}
				mu /= float64(n)
				for i := range h {
					v += (h[i][j] - mu) * (h[i][j] - mu)
				}
				v /= float64(n)
				for i := range h {
					h[i][j] = (h[i][j]-mu)/math.Sqrt(v+1e-3) + b[0][j]
				}
			}
		}
		h = mixingReLU(h)
	}
	nc := d.Graph.NumClasses
	q := m.q.Value.Data
	var z float64
	for _, v := range q {
		z += math.Exp(float64(v))
	}
	logits = make([][]float64, n)
	for i := range logits {
		logits[i] = make([]float64, nc)
		for k, v := range q {
			for j := 0; j < nc; j++ {
				logits[i][j] += math.Exp(float64(v)) / z * h[i][k*nc+j]
			}
		}
	}
	for _, v := range q {
		aux += float64(v) * float64(v)
	}
	return logits, 1e-3 * aux / float64(len(q))
}

func TestMixHopForward(t *testing.T) {
	for _, layers := range []int{2, 3} {
		t.Run(fmt.Sprintf("%d layers", layers), func(t *testing.T) {
			build := func(d *Data) Model {
				c := MixHopPreset("chameleon")
				c.Hidden, c.Layers, c.Dropout, c.InputDropout = 7, layers, 0.4, 0.3
				m, err := NewMixHop(d, c, rng.New(4))
				if err != nil {
					t.Fatal(err)
				}
				// move q and the BN shifts away from their zero initialisation
				for k := range m.q.Value.Data {
					m.q.Value.Data[k] = 0.3*float32(k) - 0.2
				}
				for _, s := range m.shifts {
					for k := range s.Value.Data {
						s.Value.Data[k] = 0.1 * float32(k%3-1)
					}
				}
				return m
			}
			d := tinyData(t, false)
			m := build(d).(*MixHop)
			// hidden 7 split over powers 0,1,2 as round(7/3) = 2, 2, 3
			if got := []int{m.ws[0][0].Cols(), m.ws[0][1].Cols(), m.ws[0][2].Cols()}; got[0] != 2 || got[1] != 2 || got[2] != 3 {
				t.Fatalf("layer 1 widths %v, want [2 2 3]", got)
			}
			want, wantAux := referenceMixHop(m, d)
			assertClose(t, "mixhop logits", mixingLogits(m, 1, false), want, 1e-5)
			tp := autograd.NewTape(tensor.Serial)
			if got := float64(m.Forward(tp).Aux.Scalar()); math.Abs(got-wantAux) > 1e-9 {
				t.Errorf("mixhop aux = %g, want %g", got, wantAux)
			}
			mixingCommonChecks(t, "mixhop", build, want)
			mixingGradCheck(t, "mixhop", m)
		})
	}
}

func TestMixHopOptions(t *testing.T) {
	if got := mixhopSplit(64, 3); got[0] != 21 || got[1] != 21 || got[2] != 22 {
		t.Errorf("mixhopSplit(64, 3) = %v, want [21 21 22]", got)
	}
	if got := mixhopRowScale([]float32{0, 0}); got != 0 {
		t.Errorf("mixhopRowScale(0) = %g, want 0", got)
	}
	if got := mixhopRowScale([]float32{3, 4}); got != 0.2 {
		t.Errorf("mixhopRowScale(3,4) = %g, want 0.2", got)
	}
	for _, bad := range []string{"", "0,,1", "1,1", "-1", "a"} {
		t.Run(strconv.Quote(bad), func(t *testing.T) {
			if _, err := mixhopPowers(bad); err == nil {
				t.Errorf("mixhopPowers(%q) accepted", bad)
			}
		})
	}
	// without psum, batch norm and L2 normalisation: plain sum of the blocks
	d := tinyData(t, false)
	c := MixHopPreset("cornell")
	c.Hidden, c.Powers, c.Psum, c.BatchNorm, c.L2Normalize = 4, "1,3", false, false, false
	m, err := NewMixHop(d, c, rng.New(2))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Params()) != 4 {
		t.Fatalf("%d params, want the 4 weights", len(m.Params()))
	}
	a := selfLoopNorm64(d.Graph.Adj)
	pow := func(z [][]float64, p int) [][]float64 {
		for range p {
			z = mm(a, z)
		}
		return z
	}
	x := dense64(d.X.ToDense())
	h := mixingReLU(mixingConcat(pow(mm(x, dense64(m.ws[0][0].Value)), 1), pow(mm(x, dense64(m.ws[0][1].Value)), 3)))
	o1, o3 := pow(mm(h, dense64(m.ws[1][0].Value)), 1), pow(mm(h, dense64(m.ws[1][1].Value)), 3)
	for i := range o1 {
		for j := range o1[i] {
			o1[i][j] += o3[i][j]
		}
	}
	assertClose(t, "mixhop plain-sum logits", mixingLogits(m, 1, false), o1, 1e-5)
}
