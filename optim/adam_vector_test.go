package optim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAdamVectorMatchesGoLoop checks that the update run takes (the AVX2
// kernel where there is one) gives the bits of the Go loop, element by
// element, for Adam and AdamW constants, every tail length and the values
// that round specially (zeros, subnormals, huge, infinite and NaN).
func TestAdamVectorMatchesGoLoop(t *testing.T) {
	if !vectorAdam {
		t.Skip("no vector kernel in this build: run is the Go loop")
	}
	specials := []float32{0, float32(math.Copysign(0, -1)), 1e-40, -1e-40, 1e30, -1e30, 3e38,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}
	r := rand.New(rand.NewPCG(7, 37))
	val := func(scale float32) float32 {
		if r.IntN(16) == 0 {
			return specials[r.IntN(len(specials))]
		}
		return (2*r.Float32() - 1) * scale
	}
	for _, decoupled := range []bool{false, true} {
		for step := 1; step <= 3; step++ {
			for _, n := range []int{0, 1, 3, 7, 8, 9, 15, 16, 17, 31, 64, 1000, 1003} {
				lr, wd := 0.01, 5e-4
				bc1 := 1 - math.Pow(0.9, float64(step))
				u := adamUpdate{b1: 0.9, b2: 0.999, c1: float32(1 - 0.9), c2: float32(1 - 0.999), eps: 1e-8,
					bc2Sqrt: float32(math.Sqrt(1 - math.Pow(0.999, float64(step)))), stepSize: float32(lr / bc1),
					l2: float32(wd), shrink: 1}
				if decoupled {
					u.l2, u.shrink = 0, float32(1-lr*wd)
				}
				p, g, m, v := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
				for i := range p {
					p[i], g[i], m[i] = val(1), val(0.1), val(0.01)
					v[i] = float32(math.Abs(float64(val(1e-4))))
					if r.IntN(32) == 0 {
						v[i] = -v[i] // a negative second moment: √ gives NaN on both paths
					}
				}
				want := u
				want.p, want.g, want.m, want.v = clone(p), clone(g), clone(m), clone(v)
				want.runGo(0, n)
				got := u
				got.p, got.g, got.m, got.v = clone(p), clone(g), clone(m), clone(v)
				// the kernel on two pieces split at an odd index, as a parallel loop may
				got.run(0, n/3)
				got.run(n/3, n)
				for name, pair := range map[string][2][]float32{"p": {got.p, want.p}, "m": {got.m, want.m}, "v": {got.v, want.v}} {
					for i := range pair[0] {
						if math.Float32bits(pair[0][i]) != math.Float32bits(pair[1][i]) {
							t.Fatalf("decoupled %v, step %d, n %d: %s[%d] = %v (%#x), Go loop %v (%#x); inputs p %v g %v m %v v %v",
								decoupled, step, n, name, i, pair[0][i], math.Float32bits(pair[0][i]), pair[1][i],
								math.Float32bits(pair[1][i]), p[i], g[i], m[i], v[i])
						}
					}
				}
			}
		}
	}
}

func clone(x []float32) []float32 { return append([]float32(nil), x...) }
