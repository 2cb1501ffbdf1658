package autograd

import (
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// TestReduceRowBlocksNarrowMatchesGo is TestReduceRowBlocksVectorMatchesGo
// for the widths whose columns, or last cols%8 columns, go through
// simd.ColSumsTail: every partial sum has the Go loop's bits, NaN payloads,
// ±0 and infinities among the values, with and without mul.
func TestReduceRowBlocksNarrowMatchesGo(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels in this build")
	}
	r := rand.New(rand.NewPCG(5, 38))
	for _, cols := range []int{2, 3, 4, 5, 6, 7, 10, 13, 15, 21} {
		for _, rows := range []int{1, 2, 255, 257, 700} {
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
						red.partial[i] = float64(i%7) - 3.5
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
