package nn

import "github.com/pcgcn/pcgcn/autograd"

// Module is anything holding trainable parameters: a layer or a whole model.
// Parameters carry names ("layer1.W") that package checkpoint saves them under.
type Module interface {
	// Params returns the module's parameters in a fixed order.
	Params() []*autograd.Var
}

// CollectParams returns the parameters of every module in order, each
// parameter once even when modules share it.
func CollectParams(ms ...Module) []*autograd.Var {
	var out []*autograd.Var
	seen := map[*autograd.Var]bool{}
	for _, m := range ms {
		for _, p := range m.Params() {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// Params is a plain list of parameters seen as a Module.
type Params []*autograd.Var

// Params returns the list itself.
func (p Params) Params() []*autograd.Var { return p }

// NumParams returns the total number of scalar values in params.
func NumParams(params []*autograd.Var) int {
	n := 0
	for _, p := range params {
		n += p.Value.Len()
	}
	return n
}
