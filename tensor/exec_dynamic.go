package tensor

import (
	"sync"
	"sync/atomic"
)

// piecesPerThread is how many pieces per goroutine the dynamic loops cut
// their range into. With more pieces than goroutines, a goroutine whose core
// is busy with another process takes fewer pieces instead of holding up the
// whole product. The cost is per-piece set-up, such as Gemm packing its
// blocks of op(b) once per piece.
const piecesPerThread = 4

// forDynamic is like For, but cuts [0, n) into up to piecesPerThread·t
// contiguous pieces that the t goroutines (the caller among them) take in
// turn from a shared counter. Which goroutine computes a piece varies from
// run to run, so fn must give each index a result that does not depend on
// the piece it falls in — true of every kernel here, whose output elements
// are computed independently of each other.
func (e Exec) forDynamic(n, work int, fn func(lo, hi int)) {
	t := min(e.N(), n)
	if t <= 1 || work < minParallelWork {
		if n > 0 {
			fn(0, n)
		}
		return
	}
	e.runPieces(t, n, min(n, piecesPerThread*t), nil, fn)
}

// forDynamicBalanced is forDynamic with pieces of about equal cost, where
// prefix[i] is the cumulative cost of the items before i (len(prefix) ==
// n+1) and width multiplies it into multiply-adds, as in ForBalanced.
func (e Exec) forDynamicBalanced(prefix []int32, width int, fn func(lo, hi int)) {
	n := len(prefix) - 1
	t := min(e.N(), n)
	if t <= 1 || int(prefix[n])*max(width, 1) < minParallelWork {
		if n > 0 {
			fn(0, n)
		}
		return
	}
	e.runPieces(t, n, min(n, piecesPerThread*t), prefix, fn)
}

// pieces is the shared state of one dynamic loop: [0, n) cut into p pieces,
// of equal length or (prefix non-nil) of about equal cost, taken in turn
// from the counter next. It is a struct, not closures, so that a loop run
// by Workers allocates nothing (the Workers own one).
type pieces struct {
	next   atomic.Int64
	n, p   int
	prefix []int32
	fn     func(lo, hi int)
}

// bound returns where piece q starts.
func (s *pieces) bound(q int) int {
	if q >= s.p {
		return s.n
	}
	if s.prefix == nil {
		return q * s.n / s.p
	}
	target := int32(int64(s.prefix[s.n]) * int64(q) / int64(s.p))
	lo, hi := 0, s.n // sort.Search, without its closure
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.prefix[m] < target {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// run takes untaken pieces until none is left.
func (s *pieces) run() {
	for {
		q := int(s.next.Add(1) - 1)
		if q >= s.p {
			return
		}
		if lo, hi := s.bound(q), s.bound(q+1); lo < hi {
			s.fn(lo, hi)
		}
	}
}

// runPieces runs fn over [0, n) cut into p pieces (see pieces) with t
// goroutines, the calling one included.
func (e Exec) runPieces(t, n, p int, prefix []int32, fn func(lo, hi int)) {
	if w := e.Workers; w.acquire(t - 1) {
		s := &w.pieces
		s.n, s.p, s.prefix, s.fn = n, p, prefix, fn
		s.next.Store(0)
		for g := 1; g < t; g++ {
			w.submit(w.runShared, 0, 0)
		}
		s.run()
		w.wait(t - 1)
		s.fn, s.prefix = nil, nil
		return
	}
	s := &pieces{n: n, p: p, prefix: prefix, fn: fn}
	var wg sync.WaitGroup
	for g := 1; g < t; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.run()
		}()
	}
	s.run()
	wg.Wait()
}
