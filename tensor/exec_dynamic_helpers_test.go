package tensor

// The dynamic loops over a plain function, for the tests of runPieces (the
// kernels reach it through kernel.go with their operands).

// forDynamic is like For, but cuts [0, n) into up to piecesPerThread·t
// contiguous pieces that the t goroutines (the caller among them) take in
// turn from a shared counter. Which goroutine computes a piece varies from
// run to run, so fn must give each index a result that does not depend on
// the piece it falls in — true of every kernel here, whose output elements
// are computed independently of each other.
func (e Exec) forDynamic(n, work int, fn func(lo, hi int)) {
	if e.Serial(n, work) {
		if n > 0 {
			fn(0, n)
		}
		return
	}
	e.runPieces(n, nil, job{fn: fn}, kernel{})
}

// forDynamicBalanced is forDynamic with pieces of about equal cost, where
// prefix[i] is the cumulative cost of the items before i (len(prefix) ==
// n+1) and width multiplies it into multiply-adds, as in ForBalanced.
func (e Exec) forDynamicBalanced(prefix []int32, width int, fn func(lo, hi int)) {
	n := len(prefix) - 1
	if e.Serial(n, int(prefix[n])*max(width, 1)) {
		if n > 0 {
			fn(0, n)
		}
		return
	}
	e.runPieces(n, prefix, job{fn: fn}, kernel{})
}
