package autograd

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// TestMulSpanVectorMatchesGo compares mulSpan's vector path (a vector
// operand, writing and adding) with its Go loops, bit for bit, on inputs
// with NaNs of different payloads, ±0, infinities and underflowing
// products, on every tail length.
func TestMulSpanVectorMatchesGo(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels in this build")
	}
	r := rand.New(rand.NewPCG(3, 37))
	for n := range 70 {
		x, b, y0 := specialDense(r, 1, n).Data, specialDense(r, 1, n).Data, specialDense(r, 1, n).Data
		for _, acc := range []bool{false, true} {
			if acc && goFusesFMA {
				continue
			}
			got, want := append([]float32(nil), y0...), append([]float32(nil), y0...)
			mulSpan(0, b, x, got, acc)
			mulSpanGo(0, b, x, want, acc)
			if i := bitsDiffer(got, want); i >= 0 {
				t.Fatalf("n=%d acc=%v: %d: vector %v, Go %v", n, acc, i, got[i], want[i])
			}
		}
	}
}

// TestReduceRowBlocksVectorMatchesGo compares the float64 column sums of
// reduceRowBlocks through simd.ColSums8 with its Go loop, bit for bit, with
// and without a multiplier, on widths 1–27 (kernel and Go columns side by
// side), blocks shorter than reduceBlock, and special values.
func TestReduceRowBlocksVectorMatchesGo(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels in this build")
	}
	r := rand.New(rand.NewPCG(4, 37))
	for _, cols := range []int{1, 2, 7, 8, 9, 16, 27, 64} {
		for _, rows := range []int{1, 5, 300, 600} {
			for _, withMul := range []bool{false, true} {
				g := specialDense(r, rows, cols)
				red := &reduction{g: g}
				if withMul {
					red.mul = specialDense(r, rows, cols).Data
				}
				nb := (rows + reduceBlock - 1) / reduceBlock
				run := func(vec bool) []float64 {
					red.partial = make([]float64, nb*cols)
					for i := range red.partial {
						red.partial[i] = float64(i%5) - 2.5 // sums already under way
					}
					reduceRowBlocksVec(red, 0, nb, vec)
					return red.partial
				}
				got, want := run(true), run(false)
				for i := range want {
					if raceBuild && got[i] != got[i] && want[i] != want[i] {
						continue // see raceBuild
					}
					if math64bits(got[i]) != math64bits(want[i]) {
						t.Fatalf("%d×%d mul=%v: sum %d: vector %v, Go %v", rows, cols, withMul, i, got[i], want[i])
					}
				}
			}
		}
	}
}

func math64bits(v float64) uint64 { return math.Float64bits(v) }
