package models

import (
	"fmt"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/tensor"
)

// params64 holds float64 copies of a model's parameters: the point at which
// the float64 reference transcriptions of the models are evaluated.
type params64 map[*autograd.Var][][]float64

// paramsOf returns the model's current parameter values in float64.
func paramsOf(m Model) params64 {
	v := params64{}
	for _, p := range m.Params() {
		v[p] = dense64(p.Value)
	}
	return v
}

// at returns p's value in v (p's own value when v does not hold it, e.g. the
// unused free prototypes).
func (v params64) at(p *autograd.Var) [][]float64 {
	if x, ok := v[p]; ok {
		return x
	}
	return dense64(p.Value)
}

// grads64 maps each parameter to its gradient, flattened row-major.
type grads64 map[*autograd.Var][]float64

// analyticGrads returns Backward's gradient of the training loss
// CE(logits_T, y_T) + Aux, the loss train.Step minimises, with dropout off.
func analyticGrads(m Model, d *Data) grads64 {
	for _, p := range m.Params() {
		p.ZeroGrad()
	}
	tp := autograd.NewTape(tensor.Serial)
	out := m.Forward(tp)
	loss := tp.CrossEntropy(out.Logits, d.Graph.Y, d.Train)
	if out.Aux != nil {
		loss = tp.Add(loss, out.Aux)
	}
	tp.Backward(loss)
	g := grads64{}
	for _, p := range m.Params() {
		g[p] = make([]float64, len(p.Value.Data))
		if p.Grad == nil {
			continue
		}
		for k, x := range p.Grad.Data {
			g[p][k] = float64(x)
		}
	}
	return g
}

// numericGrads returns the central finite-difference gradient of the float64
// function loss at the model's current parameters, for every parameter
// element. In float64 a step of 1e-5 leaves a truncation error of order 1e-10
// and a rounding error of order 1e-10, far below the float32 analytic
// gradient's own rounding, so the comparison can be relative.
func numericGrads(m Model, loss func(v params64) float64) grads64 {
	const h = 1e-5
	v := paramsOf(m)
	g := grads64{}
	for _, p := range m.Params() {
		x := v[p]
		g[p] = make([]float64, 0, len(p.Value.Data))
		for i := range x {
			for j := range x[i] {
				orig := x[i][j]
				x[i][j] = orig + h
				up := loss(v)
				x[i][j] = orig - h
				down := loss(v)
				x[i][j] = orig
				g[p] = append(g[p], (up-down)/(2*h))
			}
		}
	}
	return g
}

// gradMismatch summarises a comparison of two gradients.
type gradMismatch struct {
	checked, bad int
	first        string  // the first element out of tolerance
	worstRel     float64 // the largest |a−n|/|n| among elements with |n| > atol
}

// report fails t unless the comparison came out as expected: no gradient
// off, or, with wantFail (an injected fault), some.
func (r gradMismatch) report(t *testing.T, wantFail bool) {
	t.Helper()
	switch {
	case wantFail && r.bad == 0:
		t.Errorf("the comparison passed (worst relative error %.3g over %d gradients); it should fail", r.worstRel, r.checked)
	case wantFail:
		t.Logf("fails as it should: %d of %d gradients off, first %s", r.bad, r.checked, r.first)
	case r.bad > 0:
		t.Errorf("%d of %d gradients off, first %s", r.bad, r.checked, r.first)
	}
}

// compareGrads checks |ana − num| ≤ atol + rtol·|num| element by element.
// atol only covers elements whose gradient is itself near zero: it is kept
// far below the gradients the tests rely on.
func compareGrads(m Model, ana, num grads64, atol, rtol float64) gradMismatch {
	var r gradMismatch
	for _, p := range m.Params() {
		for k, n := range num[p] {
			a := ana[p][k]
			r.checked++
			diff := math.Abs(a - n)
			if math.Abs(n) > atol {
				r.worstRel = math.Max(r.worstRel, diff/math.Abs(n))
			}
			if diff > atol+rtol*math.Abs(n) || math.IsNaN(a) {
				if r.bad == 0 {
					r.first = fmt.Sprintf("%s[%d]: analytic %.7g, numeric %.7g", p.Name, k, a, n)
				}
				r.bad++
			}
		}
	}
	return r
}

// scaleGrads returns g with every element multiplied by s (an injected fault).
func scaleGrads(g grads64, s float64) grads64 {
	out := grads64{}
	for p, x := range g {
		out[p] = make([]float64, len(x))
		for k, v := range x {
			out[p][k] = s * v
		}
	}
	return out
}

// ceMean64 is the mean over idx of −log softmax(z_i)[y_i], as CrossEntropy.
func ceMean64(z [][]float64, y []int32, idx []int32) float64 {
	var s float64
	for _, i := range idx {
		mx := math.Inf(-1)
		for _, v := range z[i] {
			mx = math.Max(mx, v)
		}
		var e float64
		for _, v := range z[i] {
			e += math.Exp(v - mx)
		}
		s += mx + math.Log(e) - z[i][y[i]]
	}
	return s / float64(len(idx))
}

func relu64(a [][]float64) [][]float64 {
	for i := range a {
		for j := range a[i] {
			a[i][j] = math.Max(a[i][j], 0)
		}
	}
	return a
}

// stackRef64 is a float64 transcription of nn.Stack without dropout: the
// layers applied to d's features in turn, with ReLU between them.
func stackRef64(d *Data, layers int, layer func(l int, h [][]float64) [][]float64) [][]float64 {
	h := dense64(d.X.ToDense())
	for l := range layers {
		if l > 0 {
			h = relu64(h)
		}
		h = layer(l, h)
	}
	return h
}

// gcnRef64 is a float64 transcription of GCN's forward pass without dropout.
func gcnRef64(m *GCN, d *Data, v params64) [][]float64 {
	return stackRef64(d, len(m.convs), func(l int, h [][]float64) [][]float64 {
		c := m.convs[l]
		a := dense64(c.Adj.ToDense()) // Â, or the directed normalisation
		return addBias(mm(a, mm(h, v.at(c.W))), v.at(c.B))
	})
}

// mlpRef64 is a float64 transcription of the MLP's forward pass without dropout.
func mlpRef64(m *MLP, d *Data, v params64) [][]float64 {
	return stackRef64(d, len(m.ls), func(l int, h [][]float64) [][]float64 {
		return addBias(mm(h, v.at(m.ls[l].W)), v.at(m.ls[l].B))
	})
}
