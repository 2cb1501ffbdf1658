package tensor

import "sync"

// Scratch is a buffer that kernels needing memory beyond their stacks (the
// wide SpMM's packed column panels, spmm_panels.go) borrow for a whole
// call, so that a training loop allocates it once. StartExec gives its Exec
// one; a kernel that finds none, or finds it in use by another call on the
// same Exec, takes its other path, which gives the same bits.
type Scratch struct {
	mu  sync.Mutex
	buf []float32
}

// take returns the buffer grown to n floats and locked, or ok false when s
// is nil or in use; the caller calls release when done.
func (s *Scratch) take(n int) (buf []float32, ok bool) {
	if s == nil || !s.mu.TryLock() {
		return nil, false
	}
	if cap(s.buf) < n {
		s.buf = make([]float32, n)
	}
	return s.buf[:n], true
}

// release hands the buffer back after take.
func (s *Scratch) release() { s.mu.Unlock() }
