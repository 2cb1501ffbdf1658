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
			exp64(n, &a1[0])
			exp64(n, &a2[0])
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
