package autograd

import (
	"runtime"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

// TestResetRecyclesBuffers checks that a second training step after Reset
// takes every value and gradient buffer from the tape's free lists: what is
// still allocated is only the small per-operation bookkeeping (Var structs,
// closures, CSR headers), a few hundred bytes per operation.
func TestResetRecyclesBuffers(t *testing.T) {
	g := newTestGraph(2000, 64, 16, 3)
	tp := NewTape(tensor.Exec{Threads: 2})
	var first, steady runtime.MemStats
	runtime.ReadMemStats(&first)
	before := first.TotalAlloc
	g.step(tp, 1)
	runtime.ReadMemStats(&first)
	firstBytes := first.TotalAlloc - before
	g.step(tp, 1) // lets the free lists reach their final capacity

	allocs := testing.AllocsPerRun(5, func() { g.step(tp, 1) })
	runtime.ReadMemStats(&steady)
	before = steady.TotalAlloc
	const runs = 5
	for range runs {
		g.step(tp, 1)
	}
	runtime.ReadMemStats(&steady)
	perStep := (steady.TotalAlloc - before) / runs
	t.Logf("first step %d bytes; after Reset %.0f allocations, %d bytes per step", firstBytes, allocs, perStep)
	if perStep > 64<<10 || perStep*50 > firstBytes {
		t.Errorf("steady step allocates %d bytes (first step %d): large buffers are not recycled", perStep, firstBytes)
	}
	// about 45 operations; each costs a few small objects here and the
	// tensor.Exec goroutines a few more
	if allocs > 1000 {
		t.Errorf("%.0f allocations per step, want only per-operation bookkeeping", allocs)
	}
}

// TestTrimDropsThePools checks that Trim leaves no buffer in the free lists
// (steps of changing shapes would otherwise keep every size ever seen) and
// that a step after Trim computes what it computes on a fresh tape.
func TestTrimDropsThePools(t *testing.T) {
	tp := NewTape(tensor.Exec{Threads: 2})
	var want []float32
	for _, n := range []int{300, 310, 320} { // a new size every step
		g := newTestGraph(n, 16, 8, 3)
		want = append(want, g.step(NewTape(tensor.Exec{Threads: 2}), 1))
		if got := g.step(tp, 1); got != want[len(want)-1] {
			t.Fatalf("n=%d: loss %v on a trimmed tape, %v on a fresh one", n, got, want[len(want)-1])
		}
		tp.Trim()
		if len(tp.free) != 0 || len(tp.spare) != 0 || len(tp.vars) != 0 || tp.cols != nil {
			t.Fatalf("n=%d: after Trim %d free sizes, %d spare sizes, %d Vars, cols %v", n, len(tp.free), len(tp.spare), len(tp.vars), tp.cols != nil)
		}
	}
}
