package tensor

import "testing"

// TestKernelAllocations pins the steady-state allocations of the kernels to
// a small constant (the closure and goroutine bookkeeping of the parallel
// loop; the packing buffers live on the goroutines' stacks).
func TestKernelAllocations(t *testing.T) {
	r := newRand(10)
	a, b, c := randDense(r, 300, 200), randDense(r, 200, 70), NewDense(300, 70)
	sp := randCSR(r, 300, 200, 0.1, true)
	spc := NewDense(300, 70)
	sdd := make([]float32, sp.NNZ())
	ad := randDense(r, 300, 70)
	x, ctt := randDense(r, 50, 200), NewDense(70, 50)
	spt := NewDense(200, 70)
	SpMMT(Serial, 1, sp, spc, 0, spt) // build the cached transpose
	for _, e := range []Exec{Serial, {Threads: 2}} {
		limit := 2.0
		if e.Threads > 1 {
			limit = 8
		}
		for name, f := range map[string]func(){
			"Gemm":       func() { Gemm(e, false, false, 1, a, b, 0, c) },
			"GemmTT":     func() { Gemm(e, true, true, 1, b, x, 0, ctt) },
			"SpMM":       func() { SpMM(e, 1, sp, b, 0, spc) },
			"SpMMT":      func() { SpMMT(e, 1, sp, spc, 0, spt) },
			"SDDMM":      func() { SDDMM(e, sp, ad, b, sdd) },
			"RowSoftmax": func() { RowSoftmax(e, sp, sp.Val, sdd) },
		} {
			got := testing.AllocsPerRun(20, f)
			t.Logf("%s Threads=%d: %.1f allocs per call", name, e.Threads, got)
			if got > limit {
				t.Errorf("%s with Threads=%d: %.1f allocations per call, want at most %.0f", name, e.Threads, got, limit)
			}
		}
	}
}
