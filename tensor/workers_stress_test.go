package tensor

import (
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestWorkersEveryChunkDoneAtReturn calls a kernel through Workers over and
// over, with gaps and chunk times spread around spinWait and stealAfter, on
// a quiet machine and then on more busy threads than it has cores (the
// system then deschedules the goroutines at any instruction), and checks
// that every call returns with all its chunks run, and that calls keep
// returning. A goroutine descheduled between finishing the last chunk of
// one call and reading the caller's sleep flag once woke the caller of the
// next call early, and that call's chunk was lost (see Workers.pending);
// with a sleep injected at that point this test failed within a second.
func TestWorkersEveryChunkDoneAtReturn(t *testing.T) {
	run := 3 * time.Second
	if testing.Short() {
		run = time.Second
	}
	stop := make(chan struct{})
	defer close(stop)
	var calls atomic.Int64
	go func() {
		for last := int64(-1); ; {
			select {
			case <-stop:
				return
			case <-time.After(time.Minute):
			}
			c := calls.Load()
			if c == last {
				panic("Workers: no kernel call returned for a minute")
			}
			last = c
		}
	}()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, oversubscribed := range []bool{false, true} {
		if oversubscribed {
			// busy threads: the system time-slices the Workers' ones
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4 * runtime.NumCPU()))
			for range 3 * runtime.NumCPU() {
				go func() {
					for {
						select {
						case <-stop:
							return
						default:
							busyFor(time.Millisecond)
						}
					}
				}()
			}
		}
		for _, n := range []int{1, 3} {
			w := NewWorkers(n)
			e := Exec{Threads: n + 1, Workers: w}
			for start := time.Now(); time.Since(start) < run/4; {
				if gap := time.Duration(rng.IntN(300)) * time.Microsecond; rng.IntN(4) == 0 {
					time.Sleep(gap)
				} else {
					busyFor(gap)
				}
				// one chunk, any, may outlast spinWait, so that the caller
				// sleeps while the other goroutines have finished
				slowAt, slow := rng.IntN(8), time.Duration(rng.IntN(300))*time.Microsecond
				var covered atomic.Int64
				e.For(8, 1<<30, func(lo, hi int) {
					if lo <= slowAt && slowAt < hi {
						busyFor(slow)
					}
					covered.Add(int64(hi - lo))
				})
				if c := covered.Load(); c != 8 {
					t.Fatalf("%d goroutines (oversubscribed %v), call %d returned with %d of 8 items done",
						n, oversubscribed, calls.Load(), c)
				}
				calls.Add(1)
			}
			w.Close()
		}
	}
}

// busyFor keeps the core busy for d.
func busyFor(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}
