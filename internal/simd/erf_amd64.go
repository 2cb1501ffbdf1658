//go:build !purego

package simd

import "math"

// erfBlock is how many elements Erf64 takes at a time: its buffers live on
// the stack and stay in L1 between the passes. It must stay ≤ 256, the
// range of the uint8 lane indices.
const erfBlock = 256

// erfVeryTiny is the bound of math.erf's branch for the smallest arguments
// (0x0080000000000000, about 2⁻¹⁰¹⁵), which the kernels do not hold
// (besides ±0).
const erfVeryTiny = 2.848094538889218e-306

// erfScratch holds Erf64's per-block buffers: the gathered lanes of
// 0.84375 ≤ |x| < 1.25 (mid) and of 1.25 ≤ |x| < 6 (tail), their places in
// the block, and the tail's two exponentials.
type erfScratch struct {
	mid, tail, e1, e2 [erfBlock]float64
	midAt, tailAt     [erfBlock]uint8
}

// Erf64 sets x[i] = math.Erf(x[i]) in place, bit for bit. Where the Go
// compiler does not fuse a multiply and an add (amd64 below GOAMD64=v3, the
// default), it runs math.erf's operations four lanes at a time, each range
// over its own lanes only: erf64Small over all of them (|x| < 0.84375, the
// tiny ones, ±0, |x| ≥ 6 and the sign; it also gathers the other ranges'
// lanes into compact arrays, four at a time), erf64Mid over the lanes of
// 0.84375 ≤ |x| < 1.25 and the tail's kernels (erf64TailArgs, Exp64's
// twice, erf64TailEnd) over those of 1.25 ≤ |x| < 6, their results put
// back. On GELU's inputs (x/√2, x
// about unit normal) 77% of lanes are in the first range, so most lanes
// cost one division instead of the four of computing every range. NaN and
// the non-zero |x| below erfVeryTiny, which take math.erf's other branches,
// go through math.Erf itself, as do the last len(x)%4 elements. With
// GOAMD64=v3 the compiler fuses math.erf's multiply-adds, which these
// kernels do not, so every element goes through math.Erf. Package
// autograd's GELU, whose exact erf took half of a Platonov-style GCN's
// epoch, calls it.
func Erf64(x []float64) {
	if !erfVector {
		for i, v := range x {
			x[i] = math.Erf(v)
		}
		return
	}
	var s erfScratch
	for len(x) > 0 {
		blk := x[:min(len(x), erfBlock)]
		x = x[len(blk):]
		n := len(blk) &^ 3
		if n > 0 {
			erfBlock4(blk[:n], &s)
		}
		for i := n; i < len(blk); i++ {
			blk[i] = math.Erf(blk[i])
		}
	}
}

// erfBlock4 is Erf64 over x, len(x) ≤ erfBlock a multiple of 4.
func erfBlock4(x []float64, s *erfScratch) {
	m, k, left := erf64Small(len(x), &x[0], &s.mid[0], &s.tail[0], &s.midAt[0], &s.tailAt[0])
	erfPad(m, k, s)
	if m > 0 {
		erf64Mid((m+3)&^3, &s.mid[0])
		for j, v := range s.mid[:m] {
			x[s.midAt[j]] = v
		}
	}
	if k > 0 {
		k4 := (k + 3) &^ 3
		erf64TailArgs(k4, &s.tail[0], &s.e1[0], &s.e2[0])
		exp64(k4, &s.e1[0])
		exp64(k4, &s.e2[0])
		erf64TailEnd(k4, &s.tail[0], &s.e1[0], &s.e2[0])
		for j, v := range s.tail[:k] {
			x[s.tailAt[j]] = v
		}
	}
	if left > 0 { // NaN or 0 < |x| < erfVeryTiny somewhere: erf64Small kept x there
		for i, v := range x {
			if a := math.Abs(v); !(a >= erfVeryTiny || a == 0) {
				x[i] = math.Erf(v)
			}
		}
	}
}

// erfPad pads s.mid[:m] and s.tail[:k] to a multiple of 4 with lanes of
// their range (1 and 2), which keep the exponentials' arguments in Exp64's
// range.
func erfPad(m, k int, s *erfScratch) {
	for j := m; j < (m+3)&^3; j++ {
		s.mid[j] = 1
	}
	for j := k; j < (k+3)&^3; j++ {
		s.tail[j] = 2
	}
}
