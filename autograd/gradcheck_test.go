package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// brokenScaledTanh is tanh whose backward is off by the factor f: a
// deliberately wrong gradient for testing GradCheck itself.
func (t *Tape) brokenScaledTanh(x *Var, f float32) *Var {
	y := t.Tanh(x)
	out := t.Alloc(x.Rows(), x.Cols())
	copy(out.Data, y.Value.Data)
	return t.record(out, func(o *Var) {
		gx := t.grad(x).Data
		for i, g := range o.Grad.Data {
			gx[i] += f * (1 - out.Data[i]*out.Data[i]) * g
		}
	}, x)
}

// brokenMulAdd is a⊙b + a whose backward forgets the "+ a" term in ∂a.
func (t *Tape) brokenMulAdd(a, b *Var) *Var {
	out := t.Alloc(a.Rows(), a.Cols())
	for i := range out.Data {
		out.Data[i] = a.Value.Data[i]*b.Value.Data[i] + a.Value.Data[i]
	}
	return t.record(out, func(o *Var) {
		ga, gb := t.grad(a).Data, t.grad(b).Data
		for i, g := range o.Grad.Data {
			ga[i] += g * b.Value.Data[i]
			gb[i] += g * a.Value.Data[i]
		}
	}, a, b)
}

// TestGradCheckCatchesBrokenGradients shows that the package tolerance (ckEps,
// ckAtol, ckRtol) accepts the exact gradient and rejects gradients that are
// 1% too large, 1% too small or miss a term.
func TestGradCheckCatchesBrokenGradients(t *testing.T) {
	x := testkit.RandDense(4, 3, 11)
	for _, f := range []float32{1, 1.01, 0.99} {
		res, err := GradCheck(func(tp *Tape, p []*Var) *Var { return tp.brokenScaledTanh(p[0], f) },
			[]*tensor.Dense{x}, ckEps, ckAtol, ckRtol)
		if f == 1 && err != nil {
			t.Errorf("exact gradient rejected: %v", err)
		}
		if f != 1 && err == nil {
			t.Errorf("gradient scaled by %v accepted (max abs err %.3g)", f, res.MaxAbsErr)
		}
	}
	_, err := GradCheck(func(tp *Tape, p []*Var) *Var { return tp.brokenMulAdd(p[0], p[1]) },
		[]*tensor.Dense{x, testkit.RandDense(4, 3, 12)}, ckEps, ckAtol, ckRtol)
	if err == nil {
		t.Error("gradient missing a term accepted")
	}
}

// TestGradCheckNoise measures the disagreement of the numeric derivative
// with the exact one on a chain of smooth operations: it must stay well below
// the tolerance for the check to be meaningful.
func TestGradCheckNoise(t *testing.T) {
	a, b := testkit.RandDense(9, 6, 13), testkit.RandDense(6, 5, 14)
	res, err := GradCheck(func(tp *Tape, p []*Var) *Var {
		return tp.LogSoftmax(tp.Tanh(tp.MatMul(tp.Scale(p[0], 2), p[1])))
	}, []*tensor.Dense{a, b}, ckEps, ckAtol, ckRtol)
	if err != nil {
		t.Fatal(err)
	}
	if res.MaxAbsErr > ckAtol/2 {
		t.Errorf("max abs error %.3g, want below %.3g", res.MaxAbsErr, ckAtol/2)
	}
	t.Logf("max abs error %.3g, max rel error %.3g", res.MaxAbsErr, res.MaxRelErr)
}

func TestGradCheckRejectsConstantOutput(t *testing.T) {
	_, err := GradCheck(func(tp *Tape, p []*Var) *Var { return tp.StopGrad(p[0]) },
		[]*tensor.Dense{testkit.RandDense(2, 2, 1)}, ckEps, ckAtol, ckRtol)
	if err == nil {
		t.Error("GradCheck accepted an output that depends on no input")
	}
}
