package nn

import (
	"fmt"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// stats returns the mean, the standard deviation and the largest |x| of d.
func stats(d *tensor.Dense) (mean, std, maxAbs float64) {
	for _, v := range d.Data {
		mean += float64(v)
		maxAbs = math.Max(maxAbs, math.Abs(float64(v)))
	}
	mean /= float64(len(d.Data))
	for _, v := range d.Data {
		std += (float64(v) - mean) * (float64(v) - mean)
	}
	return mean, math.Sqrt(std / float64(len(d.Data))), maxAbs
}

// checkUniform asserts that d looks like U(−bound, bound): inside the bound,
// reaching close to it, centred, with standard deviation bound/√3.
func checkUniform(t *testing.T, what string, d *tensor.Dense, bound float64) {
	t.Helper()
	mean, std, maxAbs := stats(d)
	if maxAbs > bound || maxAbs < 0.98*bound {
		t.Errorf("%s: max |x| = %.5g, want just below %.5g", what, maxAbs, bound)
	}
	if math.Abs(mean) > 0.05*bound {
		t.Errorf("%s: mean %.4g, want ≈ 0", what, mean)
	}
	if want := bound / math.Sqrt(3); math.Abs(std-want) > 0.05*want {
		t.Errorf("%s: std %.5g, want %.5g", what, std, want)
	}
}

func TestXavierUniform(t *testing.T) {
	d := tensor.NewDense(100, 50)
	XavierUniform(d, 1, rng.New(1))
	checkUniform(t, "gain 1", d, math.Sqrt(6.0/150)) // = 0.2
	XavierUniform(d, Gain("relu", 0), rng.New(2))
	checkUniform(t, "gain √2", d, math.Sqrt2*0.2)
}

func TestKaimingUniform(t *testing.T) {
	// a = √5 (nn.Linear's choice) gives exactly U(±1/√fan_in); fan_in = rows.
	d := tensor.NewDense(64, 200)
	KaimingUniform(d, math.Sqrt(5), rng.New(3))
	checkUniform(t, "a=√5", d, 1.0/8)
	// a = 0 is He's ReLU init: bound √2·√(3/fan_in) = √(6/fan_in).
	d = tensor.NewDense(50, 300)
	KaimingUniform(d, 0, rng.New(4))
	checkUniform(t, "a=0", d, math.Sqrt(6.0/50))
	// an empty weight is left alone
	KaimingUniform(tensor.NewDense(0, 3), 0, rng.New(5))
}

func TestNormalAndXavierNormal(t *testing.T) {
	d := tensor.NewDense(200, 100)
	Normal(d, 2, 0.5, rng.New(6))
	if mean, std, _ := stats(d); math.Abs(mean-2) > 0.01 || math.Abs(std-0.5) > 0.01 {
		t.Errorf("Normal(2, 0.5): mean %.4g std %.4g", mean, std)
	}
	XavierNormal(d, 1, rng.New(7))
	want := math.Sqrt(2.0 / 300)
	if mean, std, _ := stats(d); math.Abs(mean) > 0.01*want*10 || math.Abs(std-want) > 0.02*want {
		t.Errorf("XavierNormal: mean %.4g std %.4g, want std %.4g", mean, std, want)
	}
}

func TestInitIsDeterministic(t *testing.T) {
	a, b, c := tensor.NewDense(7, 5), tensor.NewDense(7, 5), tensor.NewDense(7, 5)
	XavierUniform(a, 1, rng.New(42))
	XavierUniform(b, 1, rng.New(42))
	XavierUniform(c, 1, rng.New(43))
	same, differ := true, false
	for i := range a.Data {
		same = same && a.Data[i] == b.Data[i]
		differ = differ || a.Data[i] != c.Data[i]
	}
	if !same || !differ {
		t.Errorf("same seed equal: %v (want true), other seed differs: %v (want true)", same, differ)
	}
}

func TestUniformAndZeros(t *testing.T) {
	d := tensor.NewDense(40, 40)
	Uniform(d, 3, 5, rng.New(8))
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range d.Data {
		lo, hi = math.Min(lo, float64(v)), math.Max(hi, float64(v))
	}
	if lo < 3 || hi > 5 || lo > 3.05 || hi < 4.95 {
		t.Errorf("Uniform(3, 5) spans [%.4g, %.4g]", lo, hi)
	}
	Zeros(d)
	if _, _, m := stats(d); m != 0 {
		t.Errorf("Zeros left %g", m)
	}
}

func TestGain(t *testing.T) {
	for _, c := range []struct {
		name  string
		param float64
		want  float64
	}{{"linear", 0, 1}, {"sigmoid", 0, 1}, {"tanh", 0, 5.0 / 3}, {"relu", 0, math.Sqrt2},
		{"leaky_relu", 0.01, math.Sqrt(2 / (1 + 1e-4))}, {"leaky_relu", math.Sqrt(5), math.Sqrt(1.0 / 3)}, {"selu", 0, 0.75}} {
		t.Run(fmt.Sprintf("%s(%g)", c.name, c.param), func(t *testing.T) {
			if g := Gain(c.name, c.param); math.Abs(g-c.want) > 1e-12 {
				t.Errorf("Gain(%s, %g) = %g, want %g", c.name, c.param, g, c.want)
			}
		})
	}
}
