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

// pieces is the shared state of one dynamic loop: [0, n) cut into p pieces,
// of equal length or (prefix non-nil) of about equal cost, taken in turn
// from the counter next. It is a struct, not closures, so that a loop run
// by Workers allocates nothing (the Workers own one).
type pieces struct {
	next   atomic.Int64
	n, p   int
	prefix []int32
	j      job
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
			s.j.call(lo, hi)
		}
	}
}

// runPieces runs j over [0, n) cut into piecesPerThread pieces per goroutine
// (equal, or balanced by prefix; see pieces), with up to e.N() goroutines,
// the calling one included. The caller has checked that the loop is not
// serial. When j is a kernel body, kd are its operands: they are copied into
// the Workers (no allocation) or, without Workers, to the heap; kd itself is
// passed by value so that the caller's copy never escapes.
func (e Exec) runPieces(n int, prefix []int32, j job, kd kernel) {
	e.runPiecesMin(n, 1, prefix, j, kd)
}

// runPiecesMin is runPieces with pieces of at least minLen items where that
// still leaves one piece per goroutine: for loops whose pieces each pay a
// set-up proportional to the whole problem (Gemm packs op(b) once per piece),
// short ranges are cut into fewer pieces. How the range is cut never changes
// a result (each item is computed the same way in any piece).
func (e Exec) runPiecesMin(n, minLen int, prefix []int32, j job, kd kernel) {
	t := min(e.N(), n)
	p := min(n, piecesPerThread*t)
	if minLen > 1 {
		p = min(p, max(t, n/minLen))
	}
	if w := e.Workers; w.acquire(t - 1) {
		if j.kb != nil {
			w.kern = kd
			j.kd = &w.kern
		}
		s := &w.pieces
		s.n, s.p, s.prefix, s.j = n, p, prefix, j
		s.next.Store(0)
		for g := 1; g < t; g++ {
			w.submit(w.runShared, 0, 0)
		}
		s.run()
		w.wait()
		return
	}
	if j.kb != nil {
		j.kd = new(kernel)
		*j.kd = kd
	}
	spawnPieces(t, &pieces{n: n, p: p, prefix: prefix, j: j})
}

// spawnPieces is runPieces without Workers: t−1 fresh goroutines and the
// caller work on s.
func spawnPieces(t int, s *pieces) {
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
