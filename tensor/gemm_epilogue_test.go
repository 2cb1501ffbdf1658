package tensor

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// countingEpilogue adds 1 to every element of a block of c and records the
// blocks it was given.
type countingEpilogue struct {
	c      *Dense
	mu     sync.Mutex
	blocks [][4]int
}

func addOneBlock(arg any, i0, i1, j0, j1 int) {
	ce := arg.(*countingEpilogue)
	for i := i0; i < i1; i++ {
		for j := j0; j < j1; j++ {
			ce.c.Data[i*ce.c.Cols+j]++
		}
	}
	ce.mu.Lock()
	ce.blocks = append(ce.blocks, [4]int{i0, i1, j0, j1})
	ce.mu.Unlock()
}

// TestGemmEpilogueCoversEveryElementOnce checks that GemmEpilogue gives
// Gemm's result with the epilogue run exactly once on every element, on
// shapes that take each of Gemm's paths (tiles, small k, a split inner
// dimension, a sparse left operand, alpha 0) at 1 to 3 threads, and that
// the tiles run it block by block (a column block of 64 at most).
func TestGemmEpilogueCoversEveryElementOnce(t *testing.T) {
	shapes := [][3]int{{130, 64, 64}, {97, 300, 130}, {200, 5, 64}, {12, 3000, 16}, {300, 40, 9}, {1, 7, 3}, {0, 4, 4}}
	for _, sh := range shapes {
		m, k, n := sh[0], sh[1], sh[2]
		for _, threads := range []int{1, 2, 3} {
			for _, alpha := range []float32{1, 0} {
				name := fmt.Sprintf("%d×%d·%d×%d, %d threads, alpha %g", m, k, k, n, threads, alpha)
				e := Exec{Threads: threads}
				r := rand.New(rand.NewPCG(uint64(m+k), uint64(n)))
				a, b, c0 := randDense(r, m, k), randDense(r, k, n), randDense(r, m, n)
				want, got := c0.Clone(), c0.Clone()
				Gemm(e, false, false, alpha, a, b, 0, want)
				for i := range want.Data {
					want.Data[i]++
				}
				ce := &countingEpilogue{c: got}
				GemmEpilogue(e, false, false, alpha, a, b, 0, got, &Epilogue{F: addOneBlock, Arg: ce})
				for i := range want.Data {
					if got.Data[i] != want.Data[i] {
						t.Fatalf("%s: element %d: %g, want Gemm's + 1 = %g", name, i, got.Data[i], want.Data[i])
					}
				}
				if simd.Enabled() && alpha == 1 && m == 97 {
					for _, bl := range ce.blocks {
						if bl[3]-bl[2] > gemmNB {
							t.Fatalf("%s: the tiles ran the epilogue on columns %d-%d, wider than a column block", name, bl[2], bl[3])
						}
					}
					if len(ce.blocks) < 3 {
						t.Fatalf("%s: the epilogue ran on %d blocks, want one a column block at least", name, len(ce.blocks))
					}
				}
			}
		}
	}
}
