//go:build !amd64 || purego

package simd

// ColSumsTail is unavailable in this build; see Enabled.
func ColSumsTail(rows, cols, ld int, g, mul []float32, sums []float64) {
	panic("simd: ColSumsTail called without vector support")
}
