package optim

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestZeroGrad(t *testing.T) {
	a, b := param("a", 1, 1, 2), param("b", 2, 1, 2, 3, 4)
	for _, opt := range []Optimizer{
		NewAdam([]*autograd.Var{a}, 0.1, 0),
		NewSGD([]*autograd.Var{a}, 0.1, 0.9, 0, false),
	} {
		opt.AddGroup([]*autograd.Var{b}, 0.1, 0)
		setGrad(a, []float64{1, -2})
		setGrad(b, []float64{3, 4, 5, 6})
		opt.ZeroGrad()
		for _, p := range []*autograd.Var{a, b} {
			for i, g := range p.Grad.Data {
				if g != 0 {
					t.Errorf("%T: %s grad[%d] = %g after ZeroGrad", opt, p.Name, i, g)
				}
			}
		}
	}
}

// A zero gradient with no decay leaves parameters alone (m = 0, so no step).
func TestZeroGradientIsNoOp(t *testing.T) {
	p := param("p", 1, 1, -2)
	opt := NewAdam([]*autograd.Var{p}, 0.1, 0)
	opt.Step()
	closeTo(t, "p", p.Value.Data, []float64{1, -2}, 0)
}

func TestAddGroupRejectsBadParams(t *testing.T) {
	p := param("p", 1, 1)
	cases := map[string]func(){
		"duplicate":   func() { NewAdam([]*autograd.Var{p, p}, 0.1, 0) },
		"dup-group":   func() { NewSGD([]*autograd.Var{p}, 0.1, 0, 0, false).AddGroup([]*autograd.Var{p}, 0.1, 0) },
		"not-param":   func() { NewAdam([]*autograd.Var{{Value: tensor.NewDense(1, 1)}}, 0.1, 0) },
		"nil":         func() { NewAdamW([]*autograd.Var{nil}, 0.1, 0) },
		"negative-lr": func() { NewAdam([]*autograd.Var{p}, -1, 0) },
	}
	for name, f := range cases {
		testkit.Panics(t, name, f)
	}
}

func TestClipGradNorm(t *testing.T) {
	a, b := param("a", 1, 0, 0), param("b", 1, 0)
	setGrad(a, []float64{3, 0})
	setGrad(b, []float64{4})
	norm := ClipGradNorm([]*autograd.Var{a, b}, 1)
	if math.Abs(norm-5) > 1e-6 {
		t.Fatalf("norm = %g, want 5", norm)
	}
	s := 1 / (5 + 1e-6)
	closeTo(t, "a", a.Grad.Data, []float64{3 * s, 0}, 1e-7)
	closeTo(t, "b", b.Grad.Data, []float64{4 * s}, 1e-7)
	// below the limit nothing changes
	if n := ClipGradNorm([]*autograd.Var{a, b}, 10); math.Abs(n-1) > 1e-5 {
		t.Fatalf("second norm = %g, want 1", n)
	}
	closeTo(t, "b unchanged", b.Grad.Data, []float64{4 * s}, 1e-7)
}
