//go:build !purego && !amd64.v3

package simd

// erfVector says that Erf64 may use its kernels: the Go compiler rounds
// math.erf's products and sums separately at this level, as they do.
const erfVector = true
