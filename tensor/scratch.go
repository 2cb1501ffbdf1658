package tensor

import "sync"

// Scratch is a buffer that kernels needing memory beyond their stacks (the
// wide SpMM's packed column panels, spmm_panels.go; multi-head attention's
// head-major values and packed head blocks, autograd's SpMMEdgesHeads)
// borrow for a whole call, so that a training loop allocates it once. StartExec gives its Exec
// one; a kernel that finds none, or finds it in use by another call on the
// same Exec, takes its other path, which gives the same bits.
type Scratch struct {
	mu  sync.Mutex
	buf []float32
}

// Take returns the buffer grown to n floats and locked, or ok false when s
// is nil or in use; the caller calls Release when done.
func (s *Scratch) Take(n int) (buf []float32, ok bool) {
	if s == nil || !s.mu.TryLock() {
		return nil, false
	}
	if cap(s.buf) < n {
		s.buf = make([]float32, n)
	}
	return s.buf[:n], true
}

// Release hands the buffer back after Take.
func (s *Scratch) Release() { s.mu.Unlock() }
