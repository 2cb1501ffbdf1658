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
	// Scratch, when set, lends kernels the memory they need beyond their
	// stacks (see Scratch); results are the same without it.
	Scratch *Scratch
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

// Serial reports whether a loop over n items costing work multiply-adds runs
// on the calling goroutine alone (one thread, or too little work to share).
// The loops of this package decide the same way.
func (e Exec) Serial(n, work int) bool {
	return min(e.N(), n) <= 1 || work < minParallelWork
}

// job is the body of a parallel loop in one of three forms, so that the
// loops can hand it to goroutines without wrapping it in a new closure: a
// closure fn, a package-level function afn of an argument (ForArg), or a
// kernel body of this package with its operands (see kernel).
type job struct {
	fn  func(lo, hi int)
	afn func(arg any, lo, hi int)
	arg any
	kb  kernelBody
	kd  *kernel
}

func (j *job) call(lo, hi int) {
	switch {
	case j.fn != nil:
		j.fn(lo, hi)
	case j.afn != nil:
		j.afn(j.arg, lo, hi)
	default:
		j.kb(j.kd, lo, hi)
	}
}

// For calls fn on contiguous chunks [lo, hi) covering [0, n). work is an
// estimate of the total cost in multiply-adds; small jobs run serially.
func (e Exec) For(n, work int, fn func(lo, hi int)) {
	e.forJob(n, work, job{fn: fn})
}

// ForArg is For with a body that takes its data as an argument instead of
// capturing it: with a package-level function and a pointer argument that
// already lives on the heap, the call allocates nothing (a capturing closure
// is one heap object per call), which the training loop relies on.
func (e Exec) ForArg(n, work int, arg any, body func(arg any, lo, hi int)) {
	e.forJob(n, work, job{afn: body, arg: arg})
}

func (e Exec) forJob(n, work int, j job) {
	if e.Serial(n, work) {
		if n > 0 {
			j.call(0, n)
		}
		return
	}
	e.forChunks(n, j, kernel{})
}

// forChunks runs j on one contiguous chunk per goroutine (the caller takes
// the last); the caller has checked that the loop is not serial. kd are the
// operands of a kernel body, handled as in runPieces.
func (e Exec) forChunks(n int, j job, kd kernel) {
	t := min(e.N(), n)
	chunk := (n + t - 1) / t
	if w := e.Workers; w.acquire((n - 1) / chunk) {
		if j.kb != nil {
			w.kern = kd
			j.kd = &w.kern
		}
		for lo := 0; lo < n; lo += chunk {
			if hi := min(lo+chunk, n); hi < n {
				w.submit(j, lo, hi)
			} else {
				j.call(lo, hi)
			}
		}
		w.wait()
		return
	}
	if j.kb != nil {
		j.kd = new(kernel)
		*j.kd = kd
	}
	spawnChunks(n, chunk, j)
}

// spawnChunks is forChunks without Workers: a goroutine per chunk but the
// last. It is a function of its own so that only this path moves j to the
// heap.
func spawnChunks(n, chunk int, j job) {
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		if hi == n { // the calling goroutine takes the last chunk itself
			j.call(lo, hi)
			break
		}
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			j.call(lo, hi)
		}(lo, hi)
	}
	wg.Wait()
}

// ForBalanced is like For but splits [0, n) so that each chunk carries about
// the same share of cost, where prefix[i] is the cumulative cost of items
// before i (len(prefix) == n+1), e.g. a CSR RowPtr. It keeps skewed-degree
// graphs from leaving one goroutine with most of the edges.
func (e Exec) ForBalanced(prefix []int32, width int, fn func(lo, hi int)) {
	e.forBalancedJob(prefix, width, job{fn: fn})
}

// ForBalancedArg is ForBalanced with the body of ForArg.
func (e Exec) ForBalancedArg(prefix []int32, width int, arg any, body func(arg any, lo, hi int)) {
	e.forBalancedJob(prefix, width, job{afn: body, arg: arg})
}

func (e Exec) forBalancedJob(prefix []int32, width int, j job) {
	n := len(prefix) - 1
	if e.Serial(n, int(prefix[n])*max(width, 1)) {
		if n > 0 {
			j.call(0, n)
		}
		return
	}
	t := min(e.N(), n)
	w := e.Workers
	if !w.acquire(t - 1) {
		spawnBalanced(prefix, t, j)
		return
	}
	lo := 0
	for k := 1; k <= t && lo < n; k++ {
		hi := balancedEnd(prefix, t, k, lo)
		if hi == n { // the calling goroutine takes the last chunk itself
			j.call(lo, hi)
			break
		}
		w.submit(j, lo, hi)
		lo = hi
	}
	w.wait()
}

// balancedEnd returns the end of chunk k (1-based) of t over prefix, the
// chunk starting at lo: the first index whose cumulative cost reaches k/t of
// the total (at least lo+1), or n for the last chunk.
func balancedEnd(prefix []int32, t, k, lo int) int {
	n := len(prefix) - 1
	if k >= t {
		return n
	}
	target := int32(int64(prefix[n]) * int64(k) / int64(t))
	hi := lo + 1
	for hi < n && prefix[hi] < target {
		hi++
	}
	return hi
}

// spawnBalanced is forBalancedJob without Workers (see spawnChunks).
func spawnBalanced(prefix []int32, t int, j job) {
	n := len(prefix) - 1
	var wg sync.WaitGroup
	lo := 0
	for k := 1; k <= t && lo < n; k++ {
		hi := balancedEnd(prefix, t, k, lo)
		if hi == n {
			j.call(lo, hi)
			break
		}
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			j.call(lo, hi)
		}(lo, hi)
		lo = hi
	}
	wg.Wait()
}
