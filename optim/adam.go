package optim

import (
	"math"

	"github.com/pcgcn/pcgcn/autograd"
)

// Adam is the Adam optimizer of Kingma & Ba with the exact update of
// torch.optim.Adam (or torch.optim.AdamW when made by NewAdamW).
//
// With g the gradient, p the parameter and t the step count:
//
//	g ← g + wd·p                        (Adam: coupled L2 decay)
//	p ← p·(1 − lr·wd)                   (AdamW: decoupled decay instead)
//	m ← β₁m + (1−β₁)g,  v ← β₂v + (1−β₂)g²
//	p ← p − lr/(1−β₁ᵗ) · m / (√v/√(1−β₂ᵗ) + ε)
type Adam struct {
	groups
	// Beta1 and Beta2 are the decay rates of the first and second moments
	// (0.9 and 0.999 by default).
	Beta1, Beta2 float64
	// Eps is added to the bias-corrected √v (1e-8 by default).
	Eps float64

	decoupled bool
	step      int
	slots     []adamSlot
}

// adamSlot is one parameter with its moments.
type adamSlot struct {
	p     *autograd.Var
	group *Group
	m, v  []float32
}

// NewAdam returns torch.optim.Adam(params, lr, betas=(0.9, 0.999), eps=1e-8,
// weight_decay) over one group of params.
func NewAdam(params []*autograd.Var, lr, weightDecay float64) *Adam {
	a := &Adam{Beta1: 0.9, Beta2: 0.999, Eps: 1e-8}
	a.AddGroup(params, lr, weightDecay)
	return a
}

// NewAdamW returns torch.optim.AdamW(params, lr, betas=(0.9, 0.999), eps=1e-8,
// weight_decay): weight decay shrinks the parameters directly instead of
// entering the gradient and the moments. (PyTorch's default weight decay for
// AdamW is 0.01.)
func NewAdamW(params []*autograd.Var, lr, weightDecay float64) *Adam {
	a := &Adam{Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, decoupled: true}
	a.AddGroup(params, lr, weightDecay)
	return a
}

// Decoupled reports whether the weight decay is AdamW's.
func (a *Adam) Decoupled() bool { return a.decoupled }

// Steps returns the number of steps taken.
func (a *Adam) Steps() int { return a.step }

// AddGroup adds params with their own learning rate and weight decay and
// allocates their moments.
func (a *Adam) AddGroup(params []*autograd.Var, lr, weightDecay float64) *Group {
	g := a.add(params, lr, weightDecay)
	for _, p := range g.params {
		n := len(p.Value.Data)
		a.slots = append(a.slots, adamSlot{p: p, group: g, m: make([]float32, n), v: make([]float32, n)})
	}
	return g
}

// Step applies one Adam update to every parameter.
func (a *Adam) Step() {
	a.step++
	b1, b2, eps := a.Beta1, a.Beta2, a.Eps
	bc1 := 1 - math.Pow(b1, float64(a.step))
	bc2Sqrt := math.Sqrt(1 - math.Pow(b2, float64(a.step)))
	for _, s := range a.slots {
		lr, wd := s.group.LR, s.group.WeightDecay
		stepSize := lr / bc1
		l2, shrink := wd, 1.0
		if a.decoupled {
			l2, shrink = 0, 1-lr*wd
		}
		p, g, m, v := s.p.Value.Data, s.p.Grad.Data, s.m, s.v
		for i := range p {
			pi, gi := float64(p[i]), float64(g[i])+l2*float64(p[i])
			pi *= shrink
			mi := b1*float64(m[i]) + (1-b1)*gi
			vi := b2*float64(v[i]) + (1-b2)*gi*gi
			m[i], v[i] = float32(mi), float32(vi)
			p[i] = float32(pi - stepSize*mi/(math.Sqrt(vi)/bc2Sqrt+eps))
		}
	}
}
