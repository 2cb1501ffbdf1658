package tensor

import (
	"runtime"
	"sync"
)

// Exec says how many goroutines a kernel may use. The zero value uses
// runtime.GOMAXPROCS(0). Kernels split their output rows into contiguous
// chunks, one per goroutine; since every output element is computed by one
// goroutine in a fixed order, results do not depend on Threads.
type Exec struct {
	// Threads is the number of goroutines; 0 or less means GOMAXPROCS.
	Threads int
	// Workers, when set, are parked goroutines that take the chunks instead
	// of goroutines started per call (see NewWorkers); results are the same.
	Workers *Workers
}

// Serial is an Exec that runs everything on the calling goroutine.
var Serial = Exec{Threads: 1}

// N returns the number of goroutines e stands for.
func (e Exec) N() int {
	if e.Threads <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return e.Threads
}

// minParallelWork is the amount of work (roughly multiply-adds) below which a
// kernel runs on the calling goroutine: starting goroutines costs about a
// microsecond, which dominates tiny products such as those of a 183-node graph.
const minParallelWork = 1 << 15

// For calls fn on contiguous chunks [lo, hi) covering [0, n). work is an
// estimate of the total cost in multiply-adds; small jobs run serially.
func (e Exec) For(n, work int, fn func(lo, hi int)) {
	t := e.N()
	if t > n {
		t = n
	}
	if t <= 1 || work < minParallelWork {
		if n > 0 {
			fn(0, n)
		}
		return
	}
	chunk := (n + t - 1) / t
	if w := e.Workers; w.acquire((n - 1) / chunk) {
		k := 0
		for lo := 0; lo < n; lo += chunk {
			if hi := min(lo+chunk, n); hi < n {
				w.submit(fn, lo, hi)
				k++
			} else {
				fn(lo, hi)
			}
		}
		w.wait(k)
		return
	}
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		if hi == n { // the calling goroutine takes the last chunk itself
			fn(lo, hi)
			break
		}
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			fn(lo, hi)
		}(lo, hi)
	}
	wg.Wait()
}

// ForBalanced is like For but splits [0, n) so that each chunk carries about
// the same share of cost, where prefix[i] is the cumulative cost of items
// before i (len(prefix) == n+1), e.g. a CSR RowPtr. It keeps skewed-degree
// graphs from leaving one goroutine with most of the edges.
func (e Exec) ForBalanced(prefix []int32, width int, fn func(lo, hi int)) {
	n := len(prefix) - 1
	t := e.N()
	if t > n {
		t = n
	}
	total := int(prefix[n]) * max(width, 1)
	if t <= 1 || total < minParallelWork {
		if n > 0 {
			fn(0, n)
		}
		return
	}
	held := e.Workers.acquire(t - 1)
	var wg sync.WaitGroup
	lo, sent := 0, 0
	for k := 1; k <= t && lo < n; k++ {
		hi := n
		if k < t {
			target := int32(int64(prefix[n]) * int64(k) / int64(t))
			hi = lo + 1
			for hi < n && prefix[hi] < target {
				hi++
			}
		}
		if hi == n { // the calling goroutine takes the last chunk itself
			fn(lo, hi)
			break
		}
		if held {
			e.Workers.submit(fn, lo, hi)
			sent++
		} else {
			wg.Add(1)
			go func(lo, hi int) {
				defer wg.Done()
				fn(lo, hi)
			}(lo, hi)
		}
		lo = hi
	}
	if held {
		e.Workers.wait(sent)
		return
	}
	wg.Wait()
}
