package nn

import (
	"fmt"
	"math"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// Linear is an affine layer x·W + b with W in×out and an optional 1×out bias,
// initialised like torch.nn.Linear.
type Linear struct {
	// W is the in×out weight, named "<name>.W".
	W *autograd.Var
	// B is the 1×out bias, named "<name>.b"; nil without bias.
	B *autograd.Var
}

// NewLinear returns a layer from in to out features, initialised with
// ResetParameters from g.
func NewLinear(name string, in, out int, bias bool, g *rng.RNG) *Linear {
	if in < 0 || out < 0 {
		panic(fmt.Sprintf("nn: NewLinear %q with negative size %d×%d", name, in, out))
	}
	l := &Linear{W: autograd.NewParam(name+".W", tensor.NewDense(in, out))}
	if bias {
		l.B = autograd.NewParam(name+".b", tensor.NewDense(1, out))
	}
	l.ResetParameters(g)
	return l
}

// In returns the input dimension.
func (l *Linear) In() int { return l.W.Rows() }

// Out returns the output dimension.
func (l *Linear) Out() int { return l.W.Cols() }

// ResetParameters redraws the parameters as torch.nn.Linear.reset_parameters
// does: W from kaiming_uniform(a=√5), that is U(±1/√in), then b from
// U(±1/√in) (the bias stays 0 when in is 0).
func (l *Linear) ResetParameters(g *rng.RNG) {
	KaimingUniform(l.W.Value, math.Sqrt(5), g)
	if l.B != nil {
		if in := l.In(); in > 0 {
			bound := 1 / math.Sqrt(float64(in))
			Uniform(l.B.Value, -bound, bound, g)
		} else {
			Zeros(l.B.Value)
		}
	}
}

// Params returns W and, when present, b.
func (l *Linear) Params() []*autograd.Var {
	if l.B != nil {
		return []*autograd.Var{l.W, l.B}
	}
	return []*autograd.Var{l.W}
}

// Forward returns x·W + b (with a bias, through Tape.MatMulAddRow: the bias
// added to the product's blocks as the GEMM finishes them).
func (l *Linear) Forward(t *autograd.Tape, x *autograd.Var) *autograd.Var {
	if l.B != nil {
		return t.MatMulAddRow(x, l.W, l.B)
	}
	return t.MatMul(x, l.W)
}

// ForwardInput applies dropout with probability p to the input (a no-op
// unless t.Training) and then the layer. Sparse input is dropped with
// DropoutCSR on its stored values and multiplied with SpMM, so it is never
// densified. (The dropped copy of a matrix marked symmetric is not marked,
// so the backward product uses the true transpose.)
func (l *Linear) ForwardInput(t *autograd.Tape, in Input, p float64) *autograd.Var {
	if !in.valid() {
		panic("nn: Linear.ForwardInput needs exactly one of Input.Dense and Input.Sparse")
	}
	in = in.Dropout(t, p)
	if in.Dense != nil && l.B != nil {
		return t.MatMulAddRow(in.Dense, l.W, l.B)
	}
	return l.bias(t, in.MatMul(t, l.W))
}

func (l *Linear) bias(t *autograd.Tape, h *autograd.Var) *autograd.Var {
	if l.B == nil {
		return h
	}
	out := t.Add(h, l.B)
	// the product without the bias is read by nothing from here on (the
	// backward steps of MatMul, SpMM and Add do not read their outputs or
	// Add its inputs): its buffer serves the next allocation
	t.Release(h)
	return out
}
