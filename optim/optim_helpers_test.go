package optim

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/tensor"
)

// param returns a parameter holding vals as a rows×(len(vals)/rows) matrix.
func param(name string, rows int, vals ...float32) *autograd.Var {
	d := tensor.NewDense(rows, len(vals)/rows)
	copy(d.Data, vals)
	return autograd.NewParam(name, d)
}

// setGrad writes g into p's gradient.
func setGrad(p *autograd.Var, g []float64) {
	for i, v := range g {
		p.Grad.Data[i] = float32(v)
	}
}

// closeTo fails unless got and want agree within tol elementwise.
func closeTo(t *testing.T, what string, got []float32, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if d := math.Abs(float64(got[i]) - want[i]); d > tol || math.IsNaN(float64(got[i])) {
			t.Errorf("%s[%d] = %.9g, want %.9g (diff %.3g)", what, i, got[i], want[i], d)
		}
	}
}

// refAdam is the float64 transcription of torch.optim.Adam/AdamW's
// single-tensor step.
type refAdam struct {
	lr, b1, b2, eps, wd float64
	decoupled           bool
	step                int
	m, v                []float64
}

func newRefAdam(n int, lr, wd float64, decoupled bool) *refAdam {
	return &refAdam{lr: lr, b1: 0.9, b2: 0.999, eps: 1e-8, wd: wd, decoupled: decoupled,
		m: make([]float64, n), v: make([]float64, n)}
}

func (r *refAdam) stepRef(p, g []float64) {
	r.step++
	for i := range p {
		gi := g[i]
		if r.decoupled {
			p[i] *= 1 - r.lr*r.wd
		} else {
			gi += r.wd * p[i]
		}
		r.m[i] = r.b1*r.m[i] + (1-r.b1)*gi
		r.v[i] = r.b2*r.v[i] + (1-r.b2)*gi*gi
		bc1 := 1 - math.Pow(r.b1, float64(r.step))
		bc2 := 1 - math.Pow(r.b2, float64(r.step))
		denom := math.Sqrt(r.v[i])/math.Sqrt(bc2) + r.eps
		p[i] -= r.lr / bc1 * r.m[i] / denom
	}
}

// refSGD is the float64 transcription of torch.optim.SGD (dampening 0).
type refSGD struct {
	lr, mu, wd float64
	nesterov   bool
	buf        []float64
	started    bool
}

func (r *refSGD) stepRef(p, g []float64) {
	if r.buf == nil {
		r.buf = make([]float64, len(p))
	}
	for i := range p {
		gi := g[i] + r.wd*p[i]
		if r.mu != 0 {
			if !r.started {
				r.buf[i] = gi
			} else {
				r.buf[i] = r.mu*r.buf[i] + gi
			}
			if r.nesterov {
				gi += r.mu * r.buf[i]
			} else {
				gi = r.buf[i]
			}
		}
		p[i] -= r.lr * gi
	}
	r.started = true
}

// followGradSeq steps opt on p and ref on rp through gradSeq, failing t at
// the first step where they part.
func followGradSeq(t *testing.T, what string, opt interface{ Step() }, p *autograd.Var, ref interface{ stepRef(p, g []float64) }, rp []float64) {
	t.Helper()
	for s, g := range gradSeq {
		setGrad(p, g)
		opt.Step()
		ref.stepRef(rp, g)
		closeTo(t, what, p.Value.Data, rp, 1e-6)
		if t.Failed() {
			t.Fatalf("%s diverged at step %d", what, s+1)
		}
	}
}

func toF64(x []float32) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}
