//go:build !purego && amd64.v3

package simd

// erfVector is false with GOAMD64=v3 and above, where the Go compiler fuses
// math.erf's multiply-adds and the kernels (which round each operation)
// would not give its bits: Erf64 calls math.Erf.
const erfVector = false
