package testkit

import (
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// RandDense returns a rows×cols matrix of values uniform in [−1, 1), drawn
// from rng.New(seed) in row-major order.
func RandDense(rows, cols int, seed uint64) *tensor.Dense {
	g := rng.New(seed)
	d := tensor.NewDense(rows, cols)
	for i := range d.Data {
		d.Data[i] = g.Uniform(-1, 1)
	}
	return d
}

// RandCSR returns a rows×cols pattern where each entry is present with
// probability density, with values uniform in [−1, 1). Row 0 is kept empty
// when rows > 2, so that empty rows are exercised.
func RandCSR(rows, cols int, density float64, seed uint64) *tensor.CSR {
	g := rng.New(seed)
	var ts []tensor.Triplet
	for i := 0; i < rows; i++ {
		if i == 0 && rows > 2 {
			continue
		}
		for j := 0; j < cols; j++ {
			if g.Float64() < density {
				ts = append(ts, tensor.Triplet{Row: int32(i), Col: int32(j), Val: g.Uniform(-1, 1)})
			}
		}
	}
	return tensor.FromTriplets(rows, cols, ts)
}
