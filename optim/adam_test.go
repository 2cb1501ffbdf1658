package optim

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
)

// Known reference: torch.optim.Adam(lr=0.1) on p = 1 with constant gradient
// 0.5 moves p by lr·m̂/(√v̂+ε) = 0.1·0.5/(0.5+1e-8) per step, so p = 0.9 after
// one step, then 0.8, 0.7 (to within ε).
func TestAdamConstantGradientReference(t *testing.T) {
	p := param("p", 1, 1)
	opt := NewAdam([]*autograd.Var{p}, 0.1, 0)
	want := []float64{0.9, 0.8, 0.7, 0.6}
	for s, w := range want {
		p.Grad.Data[0] = 0.5
		opt.Step()
		if d := math.Abs(float64(p.Value.Data[0]) - w); d > 1e-6 {
			t.Fatalf("step %d: p = %.9g, want %.9g", s+1, p.Value.Data[0], w)
		}
	}
	if opt.Steps() != 4 {
		t.Errorf("Steps() = %d, want 4", opt.Steps())
	}
}

// gradSeq is a fixed sequence of 2×2 gradients (varying sign and scale so the
// moments and bias corrections all matter).
var gradSeq = [][]float64{
	{0.5, -1.0, 0.25, 2.0},
	{-0.3, -0.7, 0.9, 1.5},
	{0.1, 0.4, -1.2, -0.05},
	{1.1, -0.2, 0.0, 0.6},
}

func TestAdamMatchesReferenceWithWeightDecay(t *testing.T) {
	for _, tc := range []struct {
		name      string
		wd        float64
		decoupled bool
	}{{"adam", 0, false}, {"adam-wd", 0.1, false}, {"adamw", 0.1, true}, {"adamw-strong", 2, true}} {
		t.Run(tc.name, func(t *testing.T) {
			init := []float32{1.0, -0.5, 0.25, 2.0}
			p := param("W", 2, init...)
			var opt *Adam
			if tc.decoupled {
				opt = NewAdamW([]*autograd.Var{p}, 0.05, tc.wd)
			} else {
				opt = NewAdam([]*autograd.Var{p}, 0.05, tc.wd)
			}
			ref := newRefAdam(4, 0.05, tc.wd, tc.decoupled)
			followGradSeq(t, "adam", opt, p, ref, toF64(init))
			if opt.Decoupled() != tc.decoupled {
				t.Errorf("Decoupled() = %v", opt.Decoupled())
			}
		})
	}
}

// The first Adam step with L2 decay differs from the decay-free step only
// through g + wd·p; check one value by hand: p=1, g=0.5, wd=0.1 → g'=0.6,
// m̂/√v̂ = 1, so p = 1 − lr.
func TestAdamFirstStepByHand(t *testing.T) {
	// firstStep returns p after one step of the optimizer build returns, from
	// p = 1 with gradient 0.5.
	firstStep := func(build func(ps []*autograd.Var, lr, wd float64) *Adam) float64 {
		p := param("p", 1, 1)
		opt := build([]*autograd.Var{p}, 0.01, 0.1)
		p.Grad.Data[0] = 0.5
		opt.Step()
		return float64(p.Value.Data[0])
	}
	if p := firstStep(NewAdam); math.Abs(p-0.99) > 1e-7 {
		t.Fatalf("p = %.9g, want 0.99", p)
	}
	// AdamW instead shrinks first: p = 1·(1 − 0.01·0.1) − 0.01 = 0.989.
	if p := firstStep(NewAdamW); math.Abs(p-0.989) > 1e-7 {
		t.Fatalf("AdamW p = %.9g, want 0.989", p)
	}
}

// AdamW's moments never see the parameters, so with the same gradients its
// trajectory q obeys q_t = q_{t−1}(1 − lr·wd) − u_t where u_t is the step of
// decay-free Adam.
func TestAdamWIsDecoupled(t *testing.T) {
	const lr, wd = 0.05, 0.3
	init := []float32{1.0, -0.5, 0.25, 2.0}
	a, w := param("a", 2, init...), param("w", 2, init...)
	plain := NewAdam([]*autograd.Var{a}, lr, 0)
	decoupled := NewAdamW([]*autograd.Var{w}, lr, wd)
	q := toF64(init)
	for _, g := range gradSeq {
		before := toF64(a.Value.Data)
		setGrad(a, g)
		setGrad(w, g)
		plain.Step()
		decoupled.Step()
		for i := range q {
			u := before[i] - float64(a.Value.Data[i])
			q[i] = q[i]*(1-lr*wd) - u
		}
		closeTo(t, "adamw", w.Value.Data, q, 1e-6)
	}
	// and it really differs from coupled L2 decay
	c := param("c", 2, init...)
	coupled := NewAdam([]*autograd.Var{c}, lr, wd)
	for _, g := range gradSeq {
		setGrad(c, g)
		coupled.Step()
	}
	diff := 0.0
	for i := range c.Value.Data {
		diff = math.Max(diff, math.Abs(float64(c.Value.Data[i]-w.Value.Data[i])))
	}
	if diff < 1e-3 {
		t.Errorf("Adam with L2 decay and AdamW agree to %.3g; they should differ", diff)
	}
}

// Groups with their own lr and wd behave like separate optimizers.
func TestAdamGroups(t *testing.T) {
	a, b := param("a", 1, 1, 2), param("b", 1, -1, 3)
	opt := NewAdam([]*autograd.Var{a}, 0.1, 0)
	gb := opt.AddGroup([]*autograd.Var{b}, 0.02, 0.5)
	refA, refB := newRefAdam(2, 0.1, 0, false), newRefAdam(2, 0.02, 0.5, false)
	pa, pb := []float64{1, 2}, []float64{-1, 3}
	for s := 0; s < 3; s++ {
		g := []float64{0.3 * float64(s+1), -0.2}
		setGrad(a, g)
		setGrad(b, g)
		opt.Step()
		refA.stepRef(pa, g)
		refB.stepRef(pb, g)
	}
	closeTo(t, "group a", a.Value.Data, pa, 1e-6)
	closeTo(t, "group b", b.Value.Data, pb, 1e-6)
	if len(opt.Groups()) != 2 || opt.Groups()[1] != gb || gb.Params()[0] != b {
		t.Fatalf("Groups() does not list the added group")
	}
	if opt.LR() != 0.1 {
		t.Errorf("LR() = %g, want 0.1", opt.LR())
	}
	opt.SetLR(0.5)
	if opt.Groups()[0].LR != 0.5 || gb.LR != 0.5 || opt.LR() != 0.5 {
		t.Errorf("SetLR did not reach every group")
	}
}

func TestAdamStepDoesNotAllocate(t *testing.T) {
	p := param("p", 2, 1, 2, 3, 4)
	opt := NewAdam([]*autograd.Var{p}, 0.01, 0.1)
	setGrad(p, []float64{1, 1, 1, 1})
	if n := testing.AllocsPerRun(20, opt.Step); n != 0 {
		t.Errorf("Step allocates %.1f times per call", n)
	}
}

// ε is added to √v̂ (not inside the root): with g = 1e-8 the first step is
// lr·1e-8/(1e-8 + 1e-8) = lr/2.
func TestAdamEpsOutsideRoot(t *testing.T) {
	p := param("p", 1, 1)
	opt := NewAdam([]*autograd.Var{p}, 0.1, 0)
	p.Grad.Data[0] = 1e-8
	opt.Step()
	if d := math.Abs(float64(p.Value.Data[0]) - 0.95); d > 1e-6 {
		t.Fatalf("p = %.9g, want 0.95", p.Value.Data[0])
	}
}

var (
	_ Optimizer = (*Adam)(nil)
	_ Optimizer = (*SGD)(nil)
)
