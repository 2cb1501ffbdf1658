package tensor

import "sync"

// Workers is a set of parked goroutines that run the chunks of parallel
// kernels for an Exec (see Exec.Workers). Without it every parallel kernel
// call starts its goroutines afresh, which costs a WaitGroup, a wrapper
// closure and a goroutine start per call, and a training step makes a few
// hundred such calls.
//
// A Workers serves one kernel call at a time. A call made while another is
// running (from another goroutine sharing the Exec) falls back to starting
// goroutines, so sharing is safe, only not faster. Which goroutine runs a
// chunk never changes a result: kernels compute each output element in one
// chunk, in a fixed order.
type Workers struct {
	mu     sync.Mutex
	n      int
	closed bool
	tasks  chan task
	done   chan struct{}
	// pieces is the state of the dynamic loop in progress, and runShared
	// the task that works on it (made once, so submitting it allocates
	// nothing); kern holds the operands of the kernel call in progress.
	pieces    pieces
	runShared job
	kern      kernel
	// scratch is a buffer that kernels needing memory beyond their stacks
	// (gemmSplitK's partials) borrow under scratchMu for a whole call.
	scratchMu  sync.Mutex
	scratchBuf []float32
}

// task is one chunk of a kernel call.
type task struct {
	j      job
	lo, hi int
}

// NewWorkers starts n goroutines (n ≥ 1) that wait for kernel chunks; with
// the calling goroutine they serve an Exec of n+1 threads. Close stops them.
func NewWorkers(n int) *Workers {
	n = max(n, 1)
	w := &Workers{n: n, tasks: make(chan task), done: make(chan struct{}, n)}
	w.runShared = job{fn: func(int, int) { w.pieces.run() }}
	for range n {
		go w.loop()
	}
	return w
}

func (w *Workers) loop() {
	for t := range w.tasks {
		t.j.call(t.lo, t.hi)
		w.done <- struct{}{}
	}
}

// Close stops the goroutines once the kernel call in progress, if any, has
// finished. Later calls of an Exec holding w start goroutines as if it had
// no Workers. Close may be called more than once.
func (w *Workers) Close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.closed = true
		close(w.tasks)
	}
}

// acquire reserves w for a kernel call needing extra goroutines; false when
// w is nil, closed, busy or too small.
func (w *Workers) acquire(extra int) bool {
	if w == nil || !w.mu.TryLock() {
		return false
	}
	if w.closed || extra > w.n {
		w.mu.Unlock()
		return false
	}
	return true
}

// scratch returns a buffer of n floats: w's own, grown to n, with held true
// and scratchMu locked (the caller unlocks it when done), or, when w is nil
// or its buffer is in use by another call, a new one with held false.
func (w *Workers) scratch(n int) (buf []float32, held bool) {
	if w == nil || !w.scratchMu.TryLock() {
		return make([]float32, n), false
	}
	if cap(w.scratchBuf) < n {
		w.scratchBuf = make([]float32, n)
	}
	return w.scratchBuf[:n], true
}

// submit hands a chunk to a parked goroutine; the caller must hold w.
func (w *Workers) submit(j job, lo, hi int) { w.tasks <- task{j, lo, hi} }

// wait waits for k submitted chunks, then releases w, dropping its
// references to the finished call's operands.
func (w *Workers) wait(k int) {
	for range k {
		<-w.done
	}
	w.kern = kernel{}
	w.pieces.prefix, w.pieces.j = nil, job{}
	w.mu.Unlock()
}

// StartExec returns an Exec of threads goroutines (0 or less: GOMAXPROCS)
// served by parked Workers, and the function that stops them. Use it for a
// loop of many kernel calls, such as training.
func StartExec(threads int) (Exec, func()) {
	e := Exec{Threads: threads}
	if n := e.N(); n > 1 {
		e.Workers = NewWorkers(n - 1)
		return e, e.Workers.Close
	}
	return e, func() {}
}
