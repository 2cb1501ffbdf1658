package tensor

import (
	"sync"
	"sync/atomic"
	"time"
)

// Workers is a set of parked goroutines that run the chunks of parallel
// kernels for an Exec (see Exec.Workers). Without it every parallel kernel
// call starts its goroutines afresh, which costs a WaitGroup, a wrapper
// closure and a goroutine start per call, and a training step makes a few
// hundred such calls.
//
// The hand-off spins before it sleeps: a goroutine that has finished a chunk
// watches its slot for the next one for up to spinWait before parking on a
// channel, and the caller watches for the chunks it handed out likewise. An
// epoch on a small graph is a stream of kernels of a few microseconds each
// with short serial gaps between them, and waking a parked goroutine costs
// about as much as such a kernel (OpenMP runtimes, PyTorch's included, spin
// for the same reason). The spin is bounded, so idle Workers cost nothing,
// and it yields the core between rounds (osYield). On a machine with more
// busy threads than cores a goroutine's thread may not be running when its
// chunk is posted; the caller, done with its own chunk, then runs every
// chunk not yet started itself (steal) and waits only for those under way.
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
	// slots are the goroutines' mailboxes; next is the slot the next chunk
	// of the call in progress goes to, and pending counts the chunks handed
	// out and not finished, with waiterBit set while the caller sleeps on
	// done for them. The count and the flag share one word so that the
	// goroutine finishing the last chunk learns whether to wake the caller
	// from the same atomic operation that finishes the call: with two
	// words, a goroutine descheduled between them read the flag of the
	// caller's next call, woke it before that call's chunk had run, and
	// the chunk was then lost (a hang of the arm64 suite under qemu in CI).
	slots   []slot
	next    int
	pending atomic.Int32
	done    chan struct{}
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

// waiterBit is the flag in Workers.pending that says the caller sleeps on
// done; a kernel call hands out far fewer chunks than it.
const waiterBit int32 = 1 << 30

// spinWait is how long a goroutine of Workers watches for work (or the
// caller for finished chunks) before it sleeps: longer than the serial gap
// between two kernels of a training step, short enough that Workers between
// steps or after training cost no CPU to speak of.
const spinWait = 100 * time.Microsecond

// spinYieldAfter is how long a wait spins on the core alone before it starts
// yielding it between rounds: a goroutine of Workers takes a chunk posted to
// it within a microsecond while it spins, and a yield (a system call) would
// delay that; past this a busier machine's other threads get the core.
const spinYieldAfter = 20 * time.Microsecond

// stealAfter is how long the caller waits for a chunk to be started before
// it runs the chunk itself (steal): a spinning goroutine takes its chunk
// well within it, so only a chunk whose goroutine's thread is not running
// (the system gave its core to another process) is taken back. A goroutine
// that was asleep keeps its chunk: it is being woken, which takes longer
// than stealAfter but is still worth the wait (Texas's epoch: 1.45 ms with
// such chunks taken back, 0.9 ms without, the one-thread time being 1.4).
const stealAfter = 10 * time.Microsecond

// slot states: empty (the goroutine is watching it), full (a task is
// posted), running (the goroutine took the task), asleep (the goroutine is
// parked on wake), closed. A full slot is taken by whichever side moves it
// first: its goroutine (to running) or the caller, done with its own chunk
// (back to empty, running the task itself; see steal).
const (
	slotEmpty int32 = iota
	slotFull
	slotRunning
	slotAsleep
	slotClosed
)

// slot is one goroutine's mailbox: the task posted, its state, and the
// channel that wakes the goroutine once it sleeps. The padding keeps two
// slots' states off one cache line.
type slot struct {
	state atomic.Int32
	t     task
	wake  chan struct{}
	// woken says that the goroutine was asleep when the caller posted the
	// task (the caller's own field): it is waking up, and steal leaves its
	// chunk to it.
	woken bool
	_     [64]byte
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
	w := &Workers{n: n, slots: make([]slot, n), done: make(chan struct{}, 1)}
	w.runShared = job{fn: func(int, int) { w.pieces.run() }}
	for i := range w.slots {
		w.slots[i].wake = make(chan struct{}, 1)
		go w.loop(&w.slots[i])
	}
	return w
}

// loop runs the tasks posted to s until s is closed.
func (w *Workers) loop(s *slot) {
	for awaitTask(s) {
		s.t.j.call(s.t.lo, s.t.hi)
		s.t = task{}
		// empty before counting the chunk done: once pending reaches 0
		// the caller may post the next task here
		s.state.Store(slotEmpty)
		if w.pending.Add(-1) == waiterBit {
			w.done <- struct{}{} // the last chunk, and the caller sleeps
		}
	}
}

// awaitTask waits until a task is posted to s (true) or s is closed
// (false): spinning for spinWait, then asleep on s.wake.
func awaitTask(s *slot) bool {
	var sp spin
	for {
		switch s.state.Load() {
		case slotFull:
			if s.state.CompareAndSwap(slotFull, slotRunning) {
				return true
			}
			continue // the caller took it back
		case slotClosed:
			return false
		}
		if !sp.more() && s.state.CompareAndSwap(slotEmpty, slotAsleep) {
			<-s.wake // the poster (or Close) swapped the state away from asleep
		}
	}
}

// spin is the state of one spinning wait: its rounds and when it started.
type spin struct {
	round int
	start time.Time
	// since is the time spent spinning at the last reading of the clock.
	since time.Duration
}

// more counts a round of the wait and reports whether it may go on
// spinning: while within spinWait of its start. The clock is read every 64
// rounds; once the wait has spun for spinYieldAfter, each reading first
// yields the core to any other thread that wants it (osYield).
func (sp *spin) more() bool {
	sp.round++
	switch {
	case sp.round == 1:
		sp.start = time.Now()
	case sp.round&63 == 0:
		if sp.since >= spinYieldAfter {
			osYield()
		}
		sp.since = time.Since(sp.start)
	}
	return sp.since < spinWait
}

// Close stops the goroutines once the kernel call in progress, if any, has
// finished. Later calls of an Exec holding w start goroutines as if it had
// no Workers. Close may be called more than once.
func (w *Workers) Close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.closed = true
		for i := range w.slots {
			if w.slots[i].state.Swap(slotClosed) == slotAsleep {
				w.slots[i].wake <- struct{}{}
			}
		}
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
	w.next = 0
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

// submit hands a chunk to the next parked goroutine; the caller must hold w
// (acquire has checked that there are enough of them).
func (w *Workers) submit(j job, lo, hi int) {
	s := &w.slots[w.next]
	w.next++
	w.pending.Add(1)
	s.t = task{j, lo, hi}
	s.woken = s.state.Swap(slotFull) == slotAsleep
	if s.woken {
		s.wake <- struct{}{}
	}
}

// steal runs, on the caller, the chunks of the call in progress that no
// goroutine has taken yet, but for those of goroutines being woken. A goroutine whose thread the system has
// descheduled (another process on its core) then delays nothing: the caller
// never waits for a chunk that has not started.
func (w *Workers) steal() {
	for i := range w.next {
		s := &w.slots[i]
		if !s.woken && s.state.CompareAndSwap(slotFull, slotEmpty) {
			t := s.t
			s.t = task{}
			t.j.call(t.lo, t.hi)
			w.pending.Add(-1)
		}
	}
}

// wait waits for the chunks submitted to finish, spinning for spinWait and
// then asleep on w.done, and takes back those not started after stealAfter
// (steal); then it releases w, dropping its references to the finished
// call's operands.
func (w *Workers) wait() {
	var sp spin
	stolen := false
	for {
		p := w.pending.Load()
		if p == 0 {
			break
		}
		if sp.more() {
			if !stolen && sp.since >= stealAfter {
				w.steal()
				stolen = true
			}
			continue
		}
		// set waiterBit while chunks are still pending (else look again):
		// the goroutine whose decrement leaves waiterBit alone sends on
		// done, and the word is the caller's again once it has
		if w.pending.CompareAndSwap(p, p|waiterBit) {
			<-w.done
			w.pending.Store(0)
			break
		}
	}
	w.kern = kernel{}
	w.pieces.prefix, w.pieces.j = nil, job{}
	w.mu.Unlock()
}

// StartExec returns an Exec of threads goroutines (0 or less: GOMAXPROCS)
// served by parked Workers, with a Scratch, and the function that stops
// them. Use it for a loop of many kernel calls, such as training.
func StartExec(threads int) (Exec, func()) {
	e := Exec{Threads: threads, Scratch: &Scratch{}}
	if n := e.N(); n > 1 {
		e.Workers = NewWorkers(n - 1)
		return e, e.Workers.Close
	}
	return e, func() {}
}
