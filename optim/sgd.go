package optim

import (
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
)

// SGD is stochastic gradient descent with optional (Nesterov) momentum, with
// the update of torch.optim.SGD at dampening 0:
//
//	g ← g + wd·p
//	b ← μb + g               (b = g at the first step)
//	g ← g + μb  if Nesterov, else g ← b
//	p ← p − lr·g
type SGD struct {
	groups

	momentum float64
	nesterov bool
	slots    []sgdSlot
}

// sgdSlot is one parameter with its momentum buffer (nil without momentum).
type sgdSlot struct {
	p     *autograd.Var
	group *Group
	buf   []float32
}

// NewSGD returns torch.optim.SGD(params, lr, momentum, dampening=0,
// weight_decay, nesterov) over one group of params. It panics when nesterov
// is asked for without momentum, as PyTorch does.
func NewSGD(params []*autograd.Var, lr, momentum, weightDecay float64, nesterov bool) *SGD {
	if momentum < 0 {
		panic(fmt.Sprintf("optim: negative momentum %g", momentum))
	}
	if nesterov && momentum == 0 {
		panic("optim: Nesterov momentum needs a positive momentum")
	}
	s := &SGD{momentum: momentum, nesterov: nesterov}
	s.AddGroup(params, lr, weightDecay)
	return s
}

// Momentum returns the momentum factor μ.
func (s *SGD) Momentum() float64 { return s.momentum }

// Nesterov reports whether the momentum is Nesterov's.
func (s *SGD) Nesterov() bool { return s.nesterov }

// AddGroup adds params with their own learning rate and weight decay and
// allocates their momentum buffers.
func (s *SGD) AddGroup(params []*autograd.Var, lr, weightDecay float64) *Group {
	g := s.add(params, lr, weightDecay)
	for _, p := range g.params {
		var buf []float32
		if s.momentum != 0 {
			buf = make([]float32, len(p.Value.Data))
		}
		s.slots = append(s.slots, sgdSlot{p: p, group: g, buf: buf})
	}
	return g
}

// Step applies one SGD update to every parameter.
func (s *SGD) Step() {
	mu := s.momentum
	for _, sl := range s.slots {
		lr, wd := sl.group.LR, sl.group.WeightDecay
		p, g, b := sl.p.Value.Data, sl.p.Grad.Data, sl.buf
		for i := range p {
			gi := float64(g[i]) + wd*float64(p[i])
			if b != nil {
				// A zero buffer makes the first step b = g, as PyTorch's clone.
				bi := mu*float64(b[i]) + gi
				b[i] = float32(bi)
				if s.nesterov {
					gi += mu * bi
				} else {
					gi = bi
				}
			}
			p[i] = float32(float64(p[i]) - lr*gi)
		}
	}
}
