package nn

import (
	"math"

	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// Fans returns the fan-in and fan-out of a weight stored in×out (rows are
// inputs, columns outputs).
func Fans(d *tensor.Dense) (fanIn, fanOut int) { return d.Rows, d.Cols }

// Uniform fills d with values drawn uniformly from [lo, hi), in row-major order.
func Uniform(d *tensor.Dense, lo, hi float64, g *rng.RNG) {
	for i := range d.Data {
		d.Data[i] = float32(lo + (hi-lo)*g.Float64())
	}
}

// Normal fills d with values drawn from N(mean, std²), in row-major order.
func Normal(d *tensor.Dense, mean, std float64, g *rng.RNG) {
	for i := range d.Data {
		d.Data[i] = float32(mean + std*g.NormFloat64())
	}
}

// Zeros sets every element of d to 0.
func Zeros(d *tensor.Dense) { d.Zero() }

// XavierUniform is torch.nn.init.xavier_uniform_ (Glorot): U(−a, a) with
// a = gain·√(6/(fan_in+fan_out)) for an in×out weight d.
func XavierUniform(d *tensor.Dense, gain float64, g *rng.RNG) {
	in, out := Fans(d)
	if in+out == 0 {
		return
	}
	a := gain * math.Sqrt(6/float64(in+out))
	Uniform(d, -a, a, g)
}

// XavierNormal is torch.nn.init.xavier_normal_: N(0, std²) with
// std = gain·√(2/(fan_in+fan_out)).
func XavierNormal(d *tensor.Dense, gain float64, g *rng.RNG) {
	in, out := Fans(d)
	if in+out == 0 {
		return
	}
	Normal(d, 0, gain*math.Sqrt(2/float64(in+out)), g)
}

// KaimingUniform is torch.nn.init.kaiming_uniform_(d, a, mode="fan_in",
// nonlinearity="leaky_relu"): U(−b, b) with gain = √(2/(1+a²)) and
// b = gain·√(3/fan_in). With a = √5, the value nn.Linear uses, b = 1/√fan_in.
// An empty d (fan_in 0) is left as it is.
func KaimingUniform(d *tensor.Dense, a float64, g *rng.RNG) {
	in, _ := Fans(d)
	if in == 0 {
		return
	}
	gain := math.Sqrt(2 / (1 + a*a))
	b := gain * math.Sqrt(3/float64(in))
	Uniform(d, -b, b, g)
}

// Gain returns torch.nn.init.calculate_gain for the named non-linearity
// ("linear", "sigmoid", "tanh", "relu", "leaky_relu" with negative slope
// param, "selu"); it panics on any other name.
func Gain(nonlinearity string, param float64) float64 {
	switch nonlinearity {
	case "linear", "identity", "sigmoid":
		return 1
	case "tanh":
		return 5.0 / 3
	case "relu":
		return math.Sqrt2
	case "leaky_relu":
		return math.Sqrt(2 / (1 + param*param))
	case "selu":
		return 3.0 / 4
	}
	panic("nn: Gain of unknown non-linearity " + nonlinearity)
}
