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

// GradCheck compares the gradients that Backward computes for f with central
// finite differences. f builds an output from the given parameters on a
// fresh tape; the scalar checked is Σ out ⊙ R for a fixed random R, so every
// output element matters. eps is the finite-difference step (1e-2 suits
// float32 inputs of order 1). It returns an error when some element differs by
// more than atol + rtol·|numeric|.
func GradCheck(f func(t *Tape, params []*Var) *Var, inputs []*tensor.Dense, eps, atol, rtol float64) (GradCheckResult, error) {
	params := make([]*Var, len(inputs))
	for i, d := range inputs {
		params[i] = NewParam(fmt.Sprintf("in%d", i), d.Clone())
	}
	var weights *tensor.Dense
	eval := func() float64 {
		t := NewTape(tensor.Serial)
		t.SetNoGrad(true)
		out := f(t, params)
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
	loss := t.Sum(t.Mul(out, t.Const(weights)))
	t.Backward(loss)
	var res GradCheckResult
	var firstErr error
	for i, p := range params {
		for k := range p.Value.Data {
			orig := p.Value.Data[k]
			p.Value.Data[k] = orig + float32(eps)
			up := eval()
			p.Value.Data[k] = orig - float32(eps)
			down := eval()
			p.Value.Data[k] = orig
			// the step actually taken in float32
			h := float64(orig+float32(eps)) - float64(orig-float32(eps))
			num := (up - down) / h
			ana := float64(p.Grad.Data[k])
			abs := math.Abs(num - ana)
			rel := abs / math.Max(math.Abs(num), 1e-8)
			if abs > res.MaxAbsErr {
				res.MaxAbsErr = abs
			}
			if rel > res.MaxRelErr && abs > atol {
				res.MaxRelErr, res.Input, res.Index = rel, i, k
			}
			if firstErr == nil && (abs > atol+rtol*math.Abs(num) || math.IsNaN(ana)) {
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
