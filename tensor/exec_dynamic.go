package tensor

import (
	"sort"
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
	p := min(n, piecesPerThread*t)
	e.runPieces(t, p, func(q int) (int, int) { return q * n / p, (q + 1) * n / p }, fn)
}

// forDynamicBalanced is forDynamic with pieces of about equal cost, where
// prefix[i] is the cumulative cost of the items before i (len(prefix) ==
// n+1) and width multiplies it into multiply-adds, as in ForBalanced.
func (e Exec) forDynamicBalanced(prefix []int32, width int, fn func(lo, hi int)) {
	n := len(prefix) - 1
	t := min(e.N(), n)
	total := int64(prefix[n])
	if t <= 1 || int(total)*max(width, 1) < minParallelWork {
		if n > 0 {
			fn(0, n)
		}
		return
	}
	p := min(n, piecesPerThread*t)
	bound := func(q int) int {
		if q >= p {
			return n
		}
		target := int32(total * int64(q) / int64(p))
		return sort.Search(n, func(i int) bool { return prefix[i] >= target })
	}
	e.runPieces(t, p, func(q int) (int, int) { return bound(q), bound(q + 1) }, fn)
}

// runPieces runs fn on pieces 0..p-1 (bounds from piece) with t goroutines,
// the calling one included, each taking the next untaken piece.
func (e Exec) runPieces(t, p int, piece func(q int) (lo, hi int), fn func(lo, hi int)) {
	var next atomic.Int64
	work := func() {
		for {
			q := int(next.Add(1) - 1)
			if q >= p {
				return
			}
			if lo, hi := piece(q); lo < hi {
				fn(lo, hi)
			}
		}
	}
	var wg sync.WaitGroup
	for g := 1; g < t; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
}
