package nn

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestNewLinearInit(t *testing.T) {
	l := NewLinear("layer1", 100, 300, true, rng.New(1))
	if l.In() != 100 || l.Out() != 300 || l.W.Name != "layer1.W" || l.B.Name != "layer1.b" {
		t.Fatalf("layer is %d→%d named %q, %q", l.In(), l.Out(), l.W.Name, l.B.Name)
	}
	if l.B.Rows() != 1 || l.B.Cols() != 300 {
		t.Fatalf("bias is %s, want 1×300", l.B.Value.Shape())
	}
	// torch.nn.Linear: both W and b are U(±1/√in)
	checkUniform(t, "W", l.W.Value, 0.1)
	_, _, maxB := stats(l.B.Value)
	if maxB > 0.1 || maxB < 0.09 {
		t.Errorf("bias max |b| = %.4g, want just below 0.1", maxB)
	}
	if n := len(NewLinear("x", 3, 2, false, rng.New(1)).Params()); n != 1 {
		t.Errorf("bias-free layer has %d params", n)
	}
	if !l.W.IsParam() || !l.B.IsParam() {
		t.Errorf("weights are not parameters")
	}
}

func TestLinearForwardByHand(t *testing.T) {
	l := NewLinear("l", 3, 2, true, rng.New(1))
	copy(l.W.Value.Data, []float32{1, 2, 3, 4, 5, 6}) // rows: inputs
	copy(l.B.Value.Data, []float32{0.5, -1})
	tp := autograd.NewTape(tensor.Serial)
	x := tp.Const(tensor.FromRows([][]float32{{1, 0, -1}, {2, 1, 0}}))
	out := l.Forward(tp, x)
	// [1,0,-1]·W = [1-5, 2-6] = [-4,-4]; [2,1,0]·W = [2+3, 4+4] = [5, 8]
	want := []float32{-3.5, -5, 5.5, 7}
	for i, w := range want {
		if out.Value.Data[i] != w {
			t.Fatalf("out = %v, want %v", out.Value.Data, want)
		}
	}
}

func TestLinearGradCheck(t *testing.T) {
	g := rng.New(2)
	x, w, b := tensor.NewDense(4, 3), tensor.NewDense(3, 5), tensor.NewDense(1, 5)
	Uniform(x, -1, 1, g)
	Uniform(w, -1, 1, g)
	Uniform(b, -1, 1, g)
	_, err := autograd.GradCheck(func(tp *autograd.Tape, p []*autograd.Var) *autograd.Var {
		return (&Linear{W: p[1], B: p[2]}).Forward(tp, p[0])
	}, []*tensor.Dense{x, w, b}, 1e-2, 1e-3, 1e-2)
	if err != nil {
		t.Fatal(err)
	}
}

// sparseFeatures returns a 6×5 feature matrix with about a fifth non-zero.
func sparseFeatures() *tensor.Dense {
	d := tensor.NewDense(6, 5)
	for i := 0; i < 6; i++ {
		d.Set(i, (2*i)%5, float32(i+1))
		if i%2 == 0 {
			d.Set(i, (i+3)%5, -0.5)
		}
	}
	return d
}

// Sparse and dense inputs give the same output and the same weight gradient.
func TestForwardInputSparseMatchesDense(t *testing.T) {
	dense := sparseFeatures()
	sparse := tensor.DenseToCSR(dense)
	var outs [2][]float32
	var grads [2][][]float32
	for k, in := range []func(tp *autograd.Tape) Input{
		func(tp *autograd.Tape) Input { return InputFromFeatures(tp, graph.Features{Dense: dense}) },
		func(tp *autograd.Tape) Input { return InputFromFeatures(tp, graph.Features{Sparse: sparse}) },
	} {
		l := NewLinear("l", 5, 3, true, rng.New(7))
		tp := autograd.NewTape(tensor.Serial)
		x := in(tp)
		if x.Rows() != 6 || x.Cols() != 5 {
			t.Fatalf("input is %d×%d", x.Rows(), x.Cols())
		}
		if (k == 1) != (x.Sparse != nil) {
			t.Fatalf("InputFromFeatures changed the storage kind")
		}
		out := l.ForwardInput(tp, x, 0.5) // tape not training: dropout is the identity
		tp.Backward(tp.Sum(tp.Mul(out, out)))
		outs[k] = append([]float32(nil), out.Value.Data...)
		grads[k] = [][]float32{append([]float32(nil), l.W.Grad.Data...), append([]float32(nil), l.B.Grad.Data...)}
	}
	for i := range outs[0] {
		if math.Abs(float64(outs[0][i]-outs[1][i])) > 1e-6 {
			t.Fatalf("output %d: dense %g, sparse %g", i, outs[0][i], outs[1][i])
		}
	}
	for j := range grads[0] {
		for i := range grads[0][j] {
			if math.Abs(float64(grads[0][j][i]-grads[1][j][i])) > 1e-5 {
				t.Fatalf("gradient %d[%d]: dense %g, sparse %g", j, i, grads[0][j][i], grads[1][j][i])
			}
		}
	}
}

// In training, dropout changes the output, reproducibly for a seed, for both
// kinds of input.
func TestForwardInputDropoutInTraining(t *testing.T) {
	dense := sparseFeatures()
	for _, in := range []Input{{Sparse: tensor.DenseToCSR(dense)}, {Dense: &autograd.Var{Value: dense}}} {
		t.Run(map[bool]string{true: "sparse", false: "dense"}[in.Sparse != nil], func(t *testing.T) {
			l := NewLinear("l", 5, 3, false, rng.New(7))
			run := func(seed uint64, train bool) []float32 {
				tp := autograd.NewTape(tensor.Serial)
				tp.Training, tp.RNG = train, rng.New(seed)
				return append([]float32(nil), l.ForwardInput(tp, in, 0.5).Value.Data...)
			}
			eval, a, b := run(1, false), run(1, true), run(1, true)
			changed := false
			for i := range a {
				if a[i] != b[i] {
					t.Fatalf("sparse=%v: same seed gave different dropout", in.Sparse != nil)
				}
				changed = changed || a[i] != eval[i]
			}
			if !changed {
				t.Errorf("sparse=%v: dropout 0.5 in training changed nothing", in.Sparse != nil)
			}
		})
	}
}

func TestForwardInputNeedsOneKind(t *testing.T) {
	testkit.Panics(t, "an empty Input", func() {
		NewLinear("l", 2, 2, true, rng.New(1)).ForwardInput(autograd.NewTape(tensor.Serial), Input{}, 0)
	})
}

// A symmetric adjacency used as sparse features stays correct under dropout:
// with W = I the output is the dropped matrix X̃ itself and, for the loss
// Σ out, ∂W[k][j] = Σ_i X̃[i][k] (a column sum), which a product with X̃
// instead of X̃ᵀ would get wrong.
func TestForwardInputSymmetricSparseDropout(t *testing.T) {
	const n = 12
	var edges []graph.Edge
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if (i*7+j*3)%4 == 0 {
				edges = append(edges, graph.Edge{int32(i), int32(j)})
			}
		}
	}
	adj, err := graph.UndirectedAdjacency(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	// a matrix marked symmetric: dropout makes its values asymmetric, and the
	// dropped copy (tensor.CSR.WithValues) must not keep the mark
	sym := adj
	for name, in := range map[string]Input{"literal": {Sparse: sym}, "SparseInput": SparseInput(sym)} {
		t.Run(name, func(t *testing.T) {
			l := NewLinear("l", n, n, false, rng.New(1))
			l.W.Value.Zero()
			for i := 0; i < n; i++ {
				l.W.Value.Set(i, i, 1)
			}
			tp := autograd.NewTape(tensor.Serial)
			tp.Training, tp.RNG = true, rng.New(3)
			out := l.ForwardInput(tp, in, 0.4)
			tp.Backward(tp.Sum(out))
			for k := 0; k < n; k++ {
				var col float64
				for i := 0; i < n; i++ {
					col += float64(out.Value.At(i, k))
				}
				for j := 0; j < n; j++ {
					if g := float64(l.W.Grad.At(k, j)); math.Abs(g-col) > 1e-4 {
						t.Fatalf("%s: ∂W[%d][%d] = %g, want column sum %g", name, k, j, g, col)
					}
				}
			}
		})
	}
	if !sym.Symmetric() {
		t.Errorf("the caller's matrix lost its mark")
	}
}
