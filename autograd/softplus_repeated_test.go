package autograd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

// TestSoftplusRepeatedMatchesSoftplus: SoftplusRepeated gives Softplus's
// bits, forward and the input's gradient, on inputs made of few distinct
// values (zeros of both signs, subnormals, infinities, NaNs and values past
// the threshold among them), including elements that differ from their
// class's first element (wrong repeats) and an exactly right grouping, at 1–3
// threads.
func TestSoftplusRepeatedMatchesSoftplus(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	specials := []float32{0, float32(math.Copysign(0, -1)), 1e-40, -1e-40, inf, -inf, nan, 20, 20.5, -30, 3e38}
	r := rand.New(rand.NewPCG(42, 7))
	for _, n := range []int{1, 7, 64, 1000} {
		for _, wrong := range []bool{false, true} {
			for threads := 1; threads <= 3; threads++ {
				t.Run(fmt.Sprintf("n=%d/wrong=%v/threads=%d", n, wrong, threads), func(t *testing.T) {
					pool := make([]float32, 1+n/10)
					for i := range pool {
						if r.IntN(3) == 0 {
							pool[i] = specials[r.IntN(len(specials))]
						} else {
							pool[i] = 8*r.Float32() - 4
						}
					}
					v := tensor.NewDense(n, 1)
					for i := range v.Data {
						v.Data[i] = pool[r.IntN(len(pool))]
					}
					rep := NewRepeats(v.Data)
					x := v.Clone()
					if wrong { // the grouping no longer matches some elements
						for i := range x.Data {
							if r.IntN(4) == 0 {
								x.Data[i] = 8*r.Float32() - 4
							}
						}
					}
					w := tensor.NewDense(n, 1)
					for i := range w.Data {
						w.Data[i] = 2*r.Float32() - 1
					}
					run := func(f func(tp *Tape, x *Var) *Var) (y, g []float32) {
						p := NewParam("x", x.Clone())
						tp := NewTape(tensor.Exec{Threads: threads})
						out := f(tp, p)
						y = append([]float32(nil), out.Value.Data...)
						tp.Backward(tp.Sum(tp.Mul(out, tp.Const(w))))
						return y, p.Grad.Data
					}
					wantY, wantG := run((*Tape).Softplus)
					gotY, gotG := run(func(tp *Tape, x *Var) *Var { return tp.SoftplusRepeated(x, rep) })
					same(t, "forward", gotY, wantY)
					same(t, "gradient", gotG, wantG)
				})
			}
		}
	}
}

// TestSoftplusRepeatedGradient checks SoftplusRepeated's gradient by finite
// differences on inputs with repeated values.
func TestSoftplusRepeatedGradient(t *testing.T) {
	v := tensor.NewDense(6, 2)
	copy(v.Data, []float32{0.3, -1.2, 0.3, 2.5, -1.2, 0.3, 2.5, 0.7, -3, 0.3, 0.7, -1.2})
	rep := NewRepeats(v.Data)
	if rep.Classes() != 5 {
		t.Fatalf("NewRepeats found %d classes, want 5", rep.Classes())
	}
	check(t, "SoftplusRepeated", func(tp *Tape, p []*Var) *Var { return tp.SoftplusRepeated(p[0], rep) }, v)
}

// ExampleTape_SoftplusRepeated computes Softplus over values that repeat,
// once per distinct value.
func ExampleTape_SoftplusRepeated() {
	ratios := &tensor.Dense{Rows: 4, Cols: 1, Data: []float32{0.5, -0.5, 0.5, 0.5}}
	rep := NewRepeats(ratios.Data)
	tp := NewTape(tensor.Serial)
	y := tp.SoftplusRepeated(tp.Const(ratios), rep)
	fmt.Println(rep.Classes(), y.Value.Data[0] == y.Value.Data[2])
	// Output: 2 true
}
