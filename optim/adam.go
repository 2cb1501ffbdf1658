package optim

import (
	"math"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
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
	// Exec splits large parameters' updates over goroutines (the update is
	// element-wise, so the result does not depend on it). The zero value
	// uses GOMAXPROCS goroutines.
	Exec tensor.Exec

	decoupled bool
	step      int
	slots     []adamSlot
	upd       adamUpdate // the update in progress, read by the parallel loop
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

// Step applies one Adam update to every parameter. The arithmetic is float32,
// as torch.optim.Adam's on float32 parameters.
func (a *Adam) Step() {
	a.step++
	// constants in float64, then rounded once (as PyTorch passes 1−β as a
	// double): float32(1 − float32(0.999)) would be 5e-5 off
	b1, b2, eps := float32(a.Beta1), float32(a.Beta2), float32(a.Eps)
	c1, c2 := float32(1-a.Beta1), float32(1-a.Beta2)
	bc1 := 1 - math.Pow(a.Beta1, float64(a.step))
	bc2Sqrt := float32(math.Sqrt(1 - math.Pow(a.Beta2, float64(a.step))))
	for _, s := range a.slots {
		lr, wd := s.group.LR, s.group.WeightDecay
		stepSize := float32(lr / bc1)
		l2, shrink := float32(wd), float32(1)
		if a.decoupled {
			l2, shrink = 0, float32(1-lr*wd)
		}
		u := adamUpdate{b1: b1, b2: b2, c1: c1, c2: c2, eps: eps, bc2Sqrt: bc2Sqrt, stepSize: stepSize, l2: l2, shrink: shrink,
			p: s.p.Value.Data, g: s.p.Grad.Data, m: s.m, v: s.v}
		if n := len(u.p); n < parallelAdam {
			u.run(0, n) // small parameters: no goroutine, no allocation
		} else {
			a.upd = u // the loop reads it through a pointer: no closure
			a.Exec.ForArg(n, 8*n, &a.upd, runAdamUpdate)
		}
	}
}

// parallelAdam is the parameter size from which an update is split over
// goroutines.
const parallelAdam = 1 << 14

// adamUpdate is one parameter's update with the step's constants.
type adamUpdate struct {
	b1, b2, c1, c2, eps, bc2Sqrt, stepSize, l2, shrink float32
	p, g, m, v                                         []float32
}

func runAdamUpdate(arg any, lo, hi int) { arg.(*adamUpdate).run(lo, hi) }

// vectorAdam says whether run takes the AVX2 kernel (simd.AdamStep), which
// does the float32 operations of runGo in the same order without fused
// multiply-adds, so it gives the same bits as the Go loop compiled at the
// default GOAMD64 level. A GOAMD64=v3 build fuses the Go loop's a·b+c and
// so keeps the Go loop (goFusesFMA).
var vectorAdam = simd.Enabled() && !goFusesFMA

func (u *adamUpdate) run(lo, hi int) {
	if vectorAdam {
		k := [9]float32{u.b1, u.b2, u.c1, u.c2, u.eps, u.bc2Sqrt, u.stepSize, u.l2, u.shrink}
		simd.AdamStep(u.p[lo:hi], u.g[lo:hi], u.m[lo:hi], u.v[lo:hi], &k)
		return
	}
	u.runGo(lo, hi)
}

// runGo is the update of elements lo..hi in Go, the definition that
// simd.AdamStep follows.
func (u *adamUpdate) runGo(lo, hi int) {
	p, g, m, v := u.p[lo:hi], u.g[lo:hi], u.m[lo:hi], u.v[lo:hi]
	for i := range p {
		pi := p[i]
		gi := g[i] + u.l2*pi
		pi *= u.shrink
		mi := u.b1*m[i] + u.c1*gi
		vi := u.b2*v[i] + u.c2*gi*gi
		m[i], v[i] = mi, vi
		p[i] = pi - u.stepSize*mi/(float32(math.Sqrt(float64(vi)))/u.bc2Sqrt+u.eps)
	}
}
