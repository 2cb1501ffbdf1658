package optim

import (
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/testkit"
)

// Plain momentum by hand: lr=0.1, μ=0.9, constant g=1 from p=0:
// b = 1, 1.9, 2.71 and p = −0.1, −0.29, −0.561.
func TestSGDMomentumByHand(t *testing.T) {
	p := param("p", 1, 0)
	opt := NewSGD([]*autograd.Var{p}, 0.1, 0.9, 0, false)
	for s, want := range []float64{-0.1, -0.29, -0.561} {
		p.Grad.Data[0] = 1
		opt.Step()
		closeTo(t, "p", p.Value.Data, []float64{want}, 1e-6)
		if t.Failed() {
			t.Fatalf("step %d", s+1)
		}
	}
}

func TestSGDMatchesReference(t *testing.T) {
	for _, tc := range []struct {
		name     string
		mu, wd   float64
		nesterov bool
	}{{"plain", 0, 0, false}, {"wd", 0, 0.05, false}, {"momentum", 0.9, 0, false},
		{"momentum-wd", 0.9, 0.05, false}, {"nesterov-wd", 0.8, 0.01, true}} {
		t.Run(tc.name, func(t *testing.T) {
			init := []float32{1.0, -0.5, 0.25, 2.0}
			p := param("W", 2, init...)
			opt := NewSGD([]*autograd.Var{p}, 0.1, tc.mu, tc.wd, tc.nesterov)
			ref := &refSGD{lr: 0.1, mu: tc.mu, wd: tc.wd, nesterov: tc.nesterov}
			followGradSeq(t, "sgd", opt, p, ref, toF64(init))
			if opt.Momentum() != tc.mu || opt.Nesterov() != tc.nesterov {
				t.Errorf("accessors disagree with construction")
			}
		})
	}
}

func TestSGDNesterovNeedsMomentum(t *testing.T) {
	testkit.Panics(t, "Nesterov without momentum", func() {
		NewSGD(nil, 0.1, 0, 0, true)
	})
}

func TestSGDStepDoesNotAllocate(t *testing.T) {
	p := param("p", 2, 1, 2, 3, 4)
	opt := NewSGD([]*autograd.Var{p}, 0.01, 0.9, 0.1, true)
	setGrad(p, []float64{1, 1, 1, 1})
	if n := testing.AllocsPerRun(20, opt.Step); n != 0 {
		t.Errorf("Step allocates %.1f times per call", n)
	}
}
