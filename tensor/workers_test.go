package tensor

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestWorkersHandOffSpinAndSleep exercises both ways a chunk reaches a
// goroutine of Workers and both ways the caller learns it is done: calls
// back to back (the goroutines still spinning), calls spaced by more than
// spinWait (the goroutines asleep, woken through their channel), and chunks
// slower than spinWait (the caller asleep on done). Every call must cover
// its range once, and the chunks must run on more than one goroutine.
func TestWorkersHandOffSpinAndSleep(t *testing.T) {
	w := NewWorkers(3)
	defer w.Close()
	e := Exec{Threads: 4, Workers: w}
	var concurrent, most atomic.Int32
	body := func(slow time.Duration) func(fn func(lo, hi int)) {
		return func(fn func(lo, hi int)) {
			e.For(4, 1<<30, func(lo, hi int) {
				c := concurrent.Add(1)
				for m := most.Load(); c > m && !most.CompareAndSwap(m, c); m = most.Load() {
				}
				if slow > 0 {
					time.Sleep(slow)
				}
				fn(lo, hi)
				concurrent.Add(-1)
			})
		}
	}
	for i := range 300 {
		switch {
		case i%3 == 1:
			time.Sleep(3 * spinWait) // the goroutines have gone to sleep
		case i%10 == 5:
			checkCovers(t, "slow chunks", 4, body(3*spinWait)) // the caller sleeps
			continue
		}
		checkCovers(t, "hand-off", 4, body(0))
	}
	if most.Load() < 2 {
		t.Errorf("at most %d chunks ran at once: the Workers never took one", most.Load())
	}
}

// TestWorkersCloseStopsSleepingAndSpinning: Close ends the goroutines
// whether they are asleep or still spinning after a call.
func TestWorkersCloseStopsSleepingAndSpinning(t *testing.T) {
	for _, asleep := range []bool{false, true} {
		before := runtime.NumGoroutine()
		w := NewWorkers(4)
		e := Exec{Threads: 5, Workers: w}
		checkCovers(t, "before Close", 50, func(fn func(lo, hi int)) { e.For(50, 1<<30, fn) })
		if asleep {
			time.Sleep(5 * spinWait)
		}
		w.Close()
		deadline := time.Now().Add(10 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			t.Errorf("asleep %v: %d goroutines after Close, %d before NewWorkers", asleep, n, before)
		}
	}
}

// TestWorkersCallerTakesBackUnstartedChunks: a call completes, covering its
// range once, even when no goroutine of the Workers ever runs (as when the
// system has descheduled their threads for another process): the caller
// takes back the chunks nobody started. The Workers here are built without
// their goroutines.
func TestWorkersCallerTakesBackUnstartedChunks(t *testing.T) {
	w := &Workers{n: 3, slots: make([]slot, 3), done: make(chan struct{}, 1)}
	w.runShared = job{fn: func(int, int) { w.pieces.run() }}
	for i := range w.slots {
		w.slots[i].wake = make(chan struct{}, 1)
	}
	e := Exec{Threads: 4, Workers: w}
	prefix := []int32{0, 0, 50000, 50001, 50001, 90000, 120000, 120000, 120000}
	for range 3 {
		checkCovers(t, "For", 37, func(fn func(lo, hi int)) { e.For(37, 1<<30, fn) })
		checkCovers(t, "ForBalanced", len(prefix)-1, func(fn func(lo, hi int)) { e.ForBalanced(prefix, 64, fn) })
		checkCovers(t, "forDynamic", 53, func(fn func(lo, hi int)) { e.forDynamic(53, 1<<30, fn) })
	}
	if p := w.pending.Load(); p != 0 {
		t.Errorf("%d chunks still pending", p)
	}
}
