package autograd

import (
	"fmt"
	"math"

	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// GradCheckResult reports the worst disagreement between the analytic and
// the finite-difference gradient found by GradCheck.
type GradCheckResult struct {
	MaxAbsErr, MaxRelErr float64
	Input, Index         int // where the worst relative error was seen
}

// GradCheck compares the gradients that Backward computes for f with finite
// differences. f builds an output from the given parameters on a fresh tape
// (it may set the tape's Training and RNG; it must be a deterministic function
// of the parameters); the scalar checked is Σ out ⊙ R for a fixed random R, so
// every output element matters.
//
// The numeric derivative is the fourth-order five-point stencil, obtained by
// Richardson extrapolation of two central differences with steps eps and
// 2·eps: (4·D(eps) − D(2eps))/3, where each D divides by the step actually
// taken in float32. Its truncation error is O(eps⁴), so a fairly large step
// (eps = 3e-2 for inputs of order 1) keeps float32 rounding of the forward
// pass small; inputs of non-smooth operations must stay more than 2·eps away
// from their kinks. The scalar is accumulated in float64.
//
// An element fails when |analytic − numeric| > atol + rtol·|numeric| (or the
// analytic value is NaN). The tests of this package use eps 3e-2, atol 2e-4,
// rtol 2e-3, which catches a gradient scaled by 1.01 (see gradcheck_test.go).
func GradCheck(f func(t *Tape, params []*Var) *Var, inputs []*tensor.Dense, eps, atol, rtol float64) (GradCheckResult, error) {
	params := make([]*Var, len(inputs))
	for i, d := range inputs {
		params[i] = NewParam(fmt.Sprintf("in%d", i), d.Clone())
	}
	var weights *tensor.Dense
	tp := NewTape(tensor.Serial)
	eval := func() float64 {
		tp.Reset()
		tp.Training, tp.RNG = false, nil
		tp.SetNoGrad(true)
		out := f(tp, params)
		if weights == nil {
			weights = randomLike(out.Value, 7)
		}
		var s float64
		for k, v := range out.Value.Data {
			s += float64(v) * float64(weights.Data[k])
		}
		return s
	}
	eval() // fixes the weights' shape
	// analytic
	t := NewTape(tensor.Serial)
	out := f(t, params)
	if out.Value.Rows != weights.Rows || out.Value.Cols != weights.Cols {
		return GradCheckResult{}, fmt.Errorf("gradcheck: output shape changed between passes")
	}
	if !out.requiresGrad {
		return GradCheckResult{}, fmt.Errorf("gradcheck: output does not depend on any input")
	}
	loss := t.Sum(t.Mul(out, t.Const(weights)))
	t.Backward(loss)
	// central difference with step h, divided by the step taken in float32
	central := func(p *Var, k int, h float64) float64 {
		orig := p.Value.Data[k]
		hi, lo := orig+float32(h), orig-float32(h)
		p.Value.Data[k] = hi
		up := eval()
		p.Value.Data[k] = lo
		down := eval()
		p.Value.Data[k] = orig
		return (up - down) / (float64(hi) - float64(lo))
	}
	var res GradCheckResult
	var firstErr error
	for i, p := range params {
		for k := range p.Value.Data {
			num := (4*central(p, k, eps) - central(p, k, 2*eps)) / 3
			ana := float64(p.Grad.Data[k])
			abs := math.Abs(num - ana)
			rel := abs / math.Max(math.Abs(num), 1e-8)
			if abs > res.MaxAbsErr {
				res.MaxAbsErr = abs
			}
			if rel > res.MaxRelErr && abs > atol {
				res.MaxRelErr, res.Input, res.Index = rel, i, k
			}
			if firstErr == nil && (abs > atol+rtol*math.Abs(num) || math.IsNaN(ana) || math.IsNaN(num)) {
				firstErr = fmt.Errorf("gradcheck: input %d element %d: analytic %.6g, numeric %.6g", i, k, ana, num)
			}
		}
	}
	return res, firstErr
}

func randomLike(d *tensor.Dense, seed uint64) *tensor.Dense {
	g := rng.New(seed)
	w := tensor.NewDense(d.Rows, d.Cols)
	for i := range w.Data {
		w.Data[i] = g.Uniform(-1, 1)
	}
	return w
}
