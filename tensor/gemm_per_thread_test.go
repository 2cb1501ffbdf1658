package tensor

import (
	"fmt"
	"math"
	"testing"
)

// TestGemmPerThreadMatchesGemm: GemmPerThread gives Gemm's bits at 1–3
// threads with and without Workers, for each transposition, with few and
// many row panels, inner lengths across gemmKC blocks, widths that are and
// are not multiples of the tile, signed zeros, infinities, NaN payloads,
// beta 0, 1 and ½, and a sparse left operand (Gemm's sparse-left path).
func TestGemmPerThreadMatchesGemm(t *testing.T) {
	r := newRand(45)
	for _, sh := range [][3]int{{7, 5, 9}, {40, 300, 33}, {200, 256, 64}, {1030, 123, 96}, {300, 600, 130}} {
		m, k, n := sh[0], sh[1], sh[2]
		for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}} {
			for _, zeros := range []float64{0, 0.9} {
				for _, beta := range []float32{0, 1, 0.5} {
					for th := 1; th <= 3; th++ {
						for _, withWorkers := range []bool{false, true} {
							name := fmt.Sprintf("%dx%dx%d/trans=%v/zeros=%v/beta=%v/threads=%d/workers=%v", m, k, n, tr, zeros, beta, th, withWorkers)
							t.Run(name, func(t *testing.T) {
								ar, ac := m, k
								if tr[0] {
									ar, ac = k, m
								}
								br, bc := k, n
								if tr[1] {
									br, bc = n, k
								}
								a, b, c := randDense(r, ar, ac), randDense(r, br, bc), randDense(r, m, n)
								specials(r, a, zeros)
								specials(r, b, 0)
								specials(r, c, 0)
								e := Exec{Threads: th}
								if withWorkers && th > 1 {
									e.Workers = NewWorkers(th - 1)
									defer e.Workers.Close()
								}
								want, got := c.Clone(), c.Clone()
								Gemm(Exec{Threads: 1}, tr[0], tr[1], 1, a, b, beta, want)
								GemmPerThread(e, tr[0], tr[1], 1, a, b, beta, got)
								for i := range want.Data {
									if math.Float32bits(got.Data[i]) != math.Float32bits(want.Data[i]) {
										t.Fatalf("c[%d] = %v (%#x), Gemm %v (%#x)", i, got.Data[i], math.Float32bits(got.Data[i]), want.Data[i], math.Float32bits(want.Data[i]))
									}
								}
							})
						}
					}
				}
			}
		}
	}
}
