package nn

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
	"github.com/pcgcn/pcgcn/testkit/ref64"
)

// normRef64 is γ ⊙ standardise(x) + β in float64, by rows (layer) or
// columns (batch), eps 1e-5.
func normRef64(x [][]float64, kind string, gamma, beta []float64) [][]float64 {
	n, d := len(x), len(x[0])
	out := make([][]float64, n)
	for i := range out {
		out[i] = make([]float64, d)
	}
	stat := func(get func(k int) float64, m int) (mu, s float64) {
		for k := range m {
			mu += get(k)
		}
		mu /= float64(m)
		var v float64
		for k := range m {
			v += (get(k) - mu) * (get(k) - mu)
		}
		return mu, 1 / math.Sqrt(v/float64(m)+1e-5)
	}
	if kind == NormLayer {
		for i := range n {
			mu, s := stat(func(k int) float64 { return x[i][k] }, d)
			for j := range d {
				out[i][j] = gamma[j]*(x[i][j]-mu)*s + beta[j]
			}
		}
		return out
	}
	for j := range d {
		mu, s := stat(func(k int) float64 { return x[k][j] }, n)
		for i := range n {
			out[i][j] = gamma[j]*(x[i][j]-mu)*s + beta[j]
		}
	}
	return out
}

func TestNormMatchesFloat64(t *testing.T) {
	for _, kind := range []string{NormLayer, NormBatch} {
		nm := NewNorm("norm", kind, 6)
		if nm.Weight.Name != "norm.weight" || nm.Bias.Name != "norm.bias" || nm.Weight.Value.Data[0] != 1 {
			t.Fatalf("%s: parameters %q=%v, %q", kind, nm.Weight.Name, nm.Weight.Value.Data, nm.Bias.Name)
		}
		nn := &Norm{Kind: kind, Weight: autograd.NewParam("w", testkit.RandDense(1, 6, 1)), Bias: autograd.NewParam("b", testkit.RandDense(1, 6, 2))}
		x := testkit.RandDense(9, 6, 3)
		tp := autograd.NewTape(tensor.Serial)
		got := nn.Forward(tp, tp.Const(x)).Value
		want := normRef64(ref64.Dense(x), kind, ref64.Dense(nn.Weight.Value)[0], ref64.Dense(nn.Bias.Value)[0])
		ref64.AssertClose(t, kind+" norm", got, want, 1e-5)
	}
	if NewNorm("n", NormNone, 3) != nil || NewNorm("n", "", 3).Params() != nil {
		t.Errorf("NormNone is not the identity")
	}
	tp := autograd.NewTape(tensor.Serial)
	x := tp.Const(testkit.RandDense(2, 3, 4))
	if (*Norm)(nil).Forward(tp, x) != x {
		t.Errorf("a nil Norm changed its input")
	}
	testkit.Panics(t, "unknown kind", func() { NewNorm("n", "group", 3) })
}

func TestNormGradCheck(t *testing.T) {
	for _, kind := range []string{NormLayer, NormBatch} {
		_, err := autograd.GradCheck(func(tp *autograd.Tape, p []*autograd.Var) *autograd.Var {
			return tp.Mul((&Norm{Kind: kind, Weight: p[1], Bias: p[2]}).Forward(tp, p[0]), p[3])
		}, []*tensor.Dense{testkit.RandDense(5, 4, 5), testkit.RandDense(1, 4, 6), testkit.RandDense(1, 4, 7), testkit.RandDense(5, 4, 8)}, 1e-2, 1e-3, 1e-2)
		if err != nil {
			t.Errorf("%s: %v", kind, err)
		}
	}
}

// TestFeedForwardMatchesFloat64 compares the module (dropout off) with
// (x·W₁ + b₁ → GELU)·W₂ + b₂ computed in float64.
func TestFeedForwardMatchesFloat64(t *testing.T) {
	f := NewFeedForward("ffn", 5, 7, 3, rng.New(9))
	if f.Lin1.W.Name != "ffn.lin1.W" || f.Lin2.B.Name != "ffn.lin2.b" || len(f.Params()) != 4 {
		t.Fatalf("parameters misnamed: %q %q %d", f.Lin1.W.Name, f.Lin2.B.Name, len(f.Params()))
	}
	x := testkit.RandDense(6, 5, 10)
	tp := autograd.NewTape(tensor.Serial)
	got := f.Forward(tp, tp.Const(x), 0.5, tp.GELU).Value
	h := ref64.AddRow(ref64.Mul(ref64.Dense(x), ref64.Dense(f.Lin1.W.Value)), ref64.Dense(f.Lin1.B.Value)[0])
	for _, row := range h {
		for j, v := range row {
			row[j] = v * 0.5 * (1 + math.Erf(v/math.Sqrt2))
		}
	}
	want := ref64.AddRow(ref64.Mul(h, ref64.Dense(f.Lin2.W.Value)), ref64.Dense(f.Lin2.B.Value)[0])
	ref64.AssertClose(t, "FeedForward", got, want, 1e-5)
}

func TestFeedForwardGradCheck(t *testing.T) {
	_, err := autograd.GradCheck(func(tp *autograd.Tape, p []*autograd.Var) *autograd.Var {
		f := &FeedForward{Lin1: &Linear{W: p[1], B: p[2]}, Lin2: &Linear{W: p[3], B: p[4]}}
		return f.Forward(tp, p[0], 0, tp.GELU)
	}, []*tensor.Dense{testkit.RandDense(4, 3, 11), testkit.RandDense(3, 5, 12), testkit.RandDense(1, 5, 13), testkit.RandDense(5, 2, 14), testkit.RandDense(1, 2, 15)}, 1e-2, 1e-3, 1e-2)
	if err != nil {
		t.Error(err)
	}
}
