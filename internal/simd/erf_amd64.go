//go:build !purego

package simd

import "math"

// erfBlock is how many elements Erf64 takes at a time: its buffers live on
// the stack (3 × 2 KiB) and stay in L1 between the passes.
const erfBlock = 256

// erfVeryTiny is the bound of math.erf's branch for the smallest arguments
// (0x0080000000000000, about 2⁻¹⁰¹⁵), which the kernels do not hold
// (besides ±0).
const erfVeryTiny = 2.848094538889218e-306

// erfTailLo and erfTailHi bound the range in which math.erf takes its two
// exponentials, erfTailLo ≤ |x| < erfTailHi; erf64Finish blends them in
// there and nowhere else.
const erfTailLo, erfTailHi = 1.25, 6

// erfTailExp sets a1[i] and a2[i] to their exponentials (Exp64's bits) for
// the lanes i whose |x[i]| is in math.erf's tail range, which erf64Finish
// alone reads: on GELU's inputs (x/√2, x about unit normal) 1 lane in 12,
// so the two exponential passes run over those lanes gathered to the front
// (in place, then put back in reverse order, which overwrites only slots
// already put back) instead of over all n. The other lanes keep junk that
// erf64Finish blends away. n = len(x) is a multiple of 4; so is the gathered
// count, rounded up over lanes that hold prepared (finite or NaN) values.
func erfTailExp(x, a1, a2 []float64) {
	var idx [erfBlock]uint8
	m := 0
	for i, v := range x {
		a1[m], a2[m], idx[m] = a1[i], a2[i], uint8(i)
		if a := math.Abs(v); a >= erfTailLo && a < erfTailHi {
			m++
		}
	}
	if m == 0 {
		return
	}
	m4 := (m + 3) &^ 3
	exp64(m4, &a1[0])
	exp64(m4, &a2[0])
	for j := m - 1; j >= 0; j-- {
		k := idx[j]
		a1[k], a2[k] = a1[j], a2[j]
	}
}

// Erf64 sets x[i] = math.Erf(x[i]) in place, bit for bit. Where the Go
// compiler does not fuse a multiply and an add (amd64 below GOAMD64=v3, the
// default), it runs math.erf's operations four lanes at a time: the
// polynomials of every range and a blend (erf64Prep), both exponentials
// through Exp64's kernel, and the last step (erf64Finish); NaN and the
// non-zero |x| below erfVeryTiny, which take math.erf's other branches, go
// through math.Erf itself, as do the last len(x)%4 elements. With GOAMD64=v3 the
// compiler fuses math.erf's multiply-adds, which these kernels do not, so
// every element goes through math.Erf. Package autograd's GELU, whose
// exact erf took half of a Platonov-style GCN's epoch, calls it.
func Erf64(x []float64) {
	if !erfVector {
		for i, v := range x {
			x[i] = math.Erf(v)
		}
		return
	}
	var res, a1, a2 [erfBlock]float64
	for len(x) > 0 {
		blk := x[:min(len(x), erfBlock)]
		x = x[len(blk):]
		n := len(blk) &^ 3
		if n > 0 {
			erf64Prep(n, &blk[0], &res[0], &a1[0], &a2[0])
			erfTailExp(blk[:n], a1[:n], a2[:n])
			if erf64Finish(n, &blk[0], &res[0], &a1[0], &a2[0]) == 0 {
				copy(blk[:n], res[:n])
			} else {
				for i, v := range blk[:n] {
					if a := math.Abs(v); a >= erfVeryTiny || a == 0 {
						blk[i] = res[i]
					} else {
						blk[i] = math.Erf(v)
					}
				}
			}
		}
		for i := n; i < len(blk); i++ {
			blk[i] = math.Erf(blk[i])
		}
	}
}
