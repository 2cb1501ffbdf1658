package autograd

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// Gradient-check settings used by every test of the package: a five-point
// stencil with step ckEps; see GradCheck and TestGradCheckCatchesBrokenGradients.
const (
	ckEps  = 3e-2
	ckAtol = 2e-4
	ckRtol = 2e-3
)

// oddShapes are the matrix shapes most element-wise tests run on.
var oddShapes = [][2]int{{1, 1}, {3, 5}, {7, 2}}

// check runs GradCheck with the package settings and reports failures.
func check(t *testing.T, name string, f func(tp *Tape, p []*Var) *Var, inputs ...*tensor.Dense) {
	t.Helper()
	res, err := GradCheck(f, inputs, ckEps, ckAtol, ckRtol)
	if err != nil {
		t.Errorf("%s: %v (max abs err %.3g)", name, err, res.MaxAbsErr)
	}
}

// checkOnOddShapes gradient-checks op on a random matrix of each of oddShapes,
// drawn with seeds seed, seed+1, ...
func checkOnOddShapes(t *testing.T, name string, op func(tp *Tape, x *Var) *Var, seed uint64) {
	t.Helper()
	for i, s := range oddShapes {
		check(t, name, func(tp *Tape, p []*Var) *Var { return op(tp, p[0]) }, testkit.RandDense(s[0], s[1], seed+uint64(i)))
	}
}

// randAway returns a random r×c matrix in ±[gap, 1+gap): no element is
// within gap of 0, so kinks at 0 stay out of finite-difference reach.
func randAway(r, c int, seed uint64, gap float32) *tensor.Dense {
	d := testkit.RandDense(r, c, seed)
	for i, v := range d.Data {
		if v < 0 {
			d.Data[i] = v - gap
		} else {
			d.Data[i] = v + gap
		}
	}
	return d
}

// record makes the output variable of a test-only operation whose backward
// step is a closure (the package's own operations use op and done instead).
func (t *Tape) record(value *tensor.Dense, back func(out *Var), inputs ...*Var) *Var {
	out := t.newVar(value)
	if t.needs(inputs...) {
		out.requiresGrad = true
		out.back = back
		t.nodes = append(t.nodes, out)
	}
	return out
}

// needs reports whether an operation on inputs must record a backward step.
func (t *Tape) needs(inputs ...*Var) bool {
	if t.noGrad {
		return false
	}
	for _, v := range inputs {
		if v.requiresGrad {
			return true
		}
	}
	return false
}

// specialOr returns, one time in rate, one of specials (float32 bits: ±0,
// infinities, NaN payloads, subnormals…), else a standard normal draw: the
// inputs of the tests that compare a kernel with its Go loop bit for bit.
func specialOr(r *rand.Rand, specials []uint32, rate int) float32 {
	if r.IntN(rate) == 0 {
		return math.Float32frombits(specials[r.IntN(len(specials))])
	}
	return float32(r.NormFloat64())
}

// floatSpecials are the float32 bit patterns the bit-exact tests mix into
// their inputs: ±0, ±Inf, a quiet NaN, a NaN with a payload (negative), a
// signalling-pattern NaN, the smallest subnormal and a negative subnormal.
func floatSpecials() []uint32 {
	return []uint32{0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc01234, 0x7f812345, 0x00000001, 0x807fffff}
}

// fillSpecialOr fills d with specialOr's draws over floatSpecials.
func fillSpecialOr(r *rand.Rand, d []float32, rate int) {
	sp := floatSpecials()
	for i := range d {
		d[i] = specialOr(r, sp, rate)
	}
}
