//go:build !amd64 || purego

package simd

// ReLUAddScaledSubBackwardFresh is unavailable in this build; see Enabled.
func ReLUAddScaledSubBackwardFresh(gy, out, gx, ga, gb []float32, c, mi float32, fresh int) {
	panic("simd: ReLUAddScaledSubBackwardFresh called without vector support")
}
