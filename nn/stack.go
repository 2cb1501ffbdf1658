package nn

import (
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
)

// Layer is a layer that NewStack builds and Stack chains: a Module mapping
// an input to an output with dropout p on the input. Linear, GCNConv and
// SAGEConv are layers.
type Layer interface {
	Module
	// ForwardInput applies the layer to in, with dropout p on in (a no-op
	// unless t.Training).
	ForwardInput(t *autograd.Tape, in Input, p float64) *autograd.Var
}

// Compile-time checks that the layers of this package are Layers.
var (
	_ Layer  = (*Linear)(nil)
	_ Layer  = (*GCNConv)(nil)
	_ Layer  = (*SAGEConv)(nil)
	_ Module = Params(nil)
)

// NewStack builds layers stacked from in features through hidden (the
// layers−1 hidden widths) to out, in the manner of PyTorch Geometric's
// BasicGNN: build(name, in, out) makes layer l (counted from 1) under the
// name prefix+l, first to last, so that the layers draw their random
// initialisation in that order. It panics unless layers ≥ 1 (the models'
// Validate checks that first).
func NewStack[L any](prefix string, in, hidden, out, layers int, build func(name string, in, out int) L) []L {
	if layers < 1 {
		panic(fmt.Sprintf("nn: NewStack %q with %d layers", prefix, layers))
	}
	ls := make([]L, layers)
	for l := range ls {
		lin, lout := hidden, hidden
		if l == 0 {
			lin = in
		}
		if l == layers-1 {
			lout = out
		}
		ls[l] = build(fmt.Sprintf("%s%d", prefix, l+1), lin, lout)
	}
	return ls
}

// Stack runs layers in turn, as PyTorch Geometric's BasicGNN does: the first
// on x, each later one on act of the previous output, every layer with
// dropout p on its input. It returns the last layer's output and the last
// hidden representation, act of the last hidden layer's output (the output
// itself when there is one layer).
func Stack[L Layer](t *autograd.Tape, layers []L, x Input, p float64, act func(*autograd.Var) *autograd.Var) (out, hidden *autograd.Var) {
	out = layers[0].ForwardInput(t, x, p)
	hidden = out
	for _, l := range layers[1:] {
		hidden = act(out)
		out = l.ForwardInput(t, DenseInput(hidden), p)
	}
	return out, hidden
}

// ParamsOf returns the parameters of modules in order, module by module.
func ParamsOf[M Module](modules []M) []*autograd.Var {
	var ps []*autograd.Var
	for _, m := range modules {
		ps = append(ps, m.Params()...)
	}
	return ps
}
