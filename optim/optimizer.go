package optim

import (
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
)

// Optimizer updates parameters from their accumulated gradients.
type Optimizer interface {
	// Step applies one update to every parameter from its current gradient.
	Step()
	// ZeroGrad zeroes the gradient of every parameter.
	ZeroGrad()
	// LR returns the learning rate of the first group.
	LR() float64
	// SetLR sets the learning rate of every group.
	SetLR(lr float64)
	// AddGroup adds parameters with their own learning rate and weight decay.
	AddGroup(params []*autograd.Var, lr, weightDecay float64) *Group
	// Groups returns the parameter groups in the order they were added.
	Groups() []*Group
}

// Group is a set of parameters sharing a learning rate and a weight decay.
// LR and WeightDecay may be changed between steps (by a scheduler, say); they
// are read at every Step.
type Group struct {
	// LR is the learning rate.
	LR float64
	// WeightDecay is the decay coefficient; how it is applied depends on the
	// optimizer (L2 added to the gradient for Adam and SGD, decoupled for AdamW).
	WeightDecay float64

	params []*autograd.Var
}

// Params returns the group's parameters (the slice must not be modified).
func (g *Group) Params() []*autograd.Var { return g.params }

// groups is the bookkeeping every optimizer shares.
type groups struct {
	list []*Group
	seen map[*autograd.Var]bool
}

// add validates params and appends a new group holding them. It panics on a
// variable that is not a parameter, on a parameter listed twice, and on a
// negative learning rate or weight decay.
func (gs *groups) add(params []*autograd.Var, lr, weightDecay float64) *Group {
	if lr < 0 || weightDecay < 0 {
		panic(fmt.Sprintf("optim: negative learning rate %g or weight decay %g", lr, weightDecay))
	}
	if gs.seen == nil {
		gs.seen = map[*autograd.Var]bool{}
	}
	for i, p := range params {
		if p == nil || !p.IsParam() || p.Grad == nil {
			panic(fmt.Sprintf("optim: entry %d is not a parameter made by autograd.NewParam", i))
		}
		if gs.seen[p] {
			panic(fmt.Sprintf("optim: parameter %q added twice", p.Name))
		}
		gs.seen[p] = true
	}
	g := &Group{LR: lr, WeightDecay: weightDecay, params: append([]*autograd.Var(nil), params...)}
	gs.list = append(gs.list, g)
	return g
}

// Groups returns the parameter groups in the order they were added.
func (gs *groups) Groups() []*Group { return gs.list }

// ZeroGrad zeroes the gradient of every parameter of every group.
func (gs *groups) ZeroGrad() {
	for _, g := range gs.list {
		for _, p := range g.params {
			p.ZeroGrad()
		}
	}
}

// LR returns the learning rate of the first group (0 when there is none).
func (gs *groups) LR() float64 {
	if len(gs.list) == 0 {
		return 0
	}
	return gs.list[0].LR
}

// SetLR sets the learning rate of every group. To give groups different
// rates, set Group.LR through Groups instead.
func (gs *groups) SetLR(lr float64) {
	for _, g := range gs.list {
		g.LR = lr
	}
}
