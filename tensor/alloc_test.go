package tensor

import "testing"

// TestKernelAllocations pins the steady-state allocations of the kernels:
// none on one thread or with Workers (the operands travel in a struct, the
// packing buffers live on the goroutines' stacks); without Workers, the
// goroutine bookkeeping of the parallel loop.
func TestKernelAllocations(t *testing.T) {
	r := newRand(10)
	a, b, c := randDense(r, 300, 200), randDense(r, 200, 70), NewDense(300, 70)
	sp := randCSR(r, 300, 200, 0.1, true)
	spc := NewDense(300, 70)
	sdd := make([]float32, sp.NNZ())
	ad := randDense(r, 300, 70)
	x, ctt := randDense(r, 50, 200), NewDense(70, 50)
	big := randDense(r, 2000, 300)
	ha, hg, dw := randDense(r, splitKMinK, 9), randDense(r, splitKMinK, 20), NewDense(9, 20)
	spt := NewDense(200, 70)
	SpMMT(Serial, 1, sp, spc, 0, spt) // build the cached transpose
	w := NewWorkers(1)
	defer w.Close()
	for _, e := range []Exec{Serial, {Threads: 2}, {Threads: 2, Workers: w}} {
		limit := 0.0
		if e.Threads > 1 && e.Workers == nil {
			limit = 8
		}
		for name, f := range map[string]func(){
			"Gemm":       func() { Gemm(e, false, false, 1, a, b, 0, c) },
			"GemmTT":     func() { Gemm(e, true, true, 1, b, x, 0, ctt) },
			"GemmSplitK": func() { Gemm(e, true, false, 1, ha, hg, 0, dw) },
			"SpMM":       func() { SpMM(e, 1, sp, b, 0, spc) },
			"ZeroExec":   func() { big.ZeroExec(e) },
			"SpMMT":      func() { SpMMT(e, 1, sp, spc, 0, spt) },
			"SDDMM":      func() { SDDMM(e, sp, ad, b, sdd) },
			"RowSoftmax": func() { RowSoftmax(e, sp, sp.Val, sdd) },
		} {
			got := testing.AllocsPerRun(20, f)
			t.Logf("%s Threads=%d workers=%v: %.1f allocs per call", name, e.Threads, e.Workers != nil, got)
			lim := limit
			if name == "GemmSplitK" && limit > 0 {
				lim = 2*limit + 1 // two groups of blocks, and the partials' buffer
			}
			if got > lim {
				t.Errorf("%s with Threads=%d: %.1f allocations per call, want at most %.0f", name, e.Threads, got, lim)
			}
		}
	}
}
