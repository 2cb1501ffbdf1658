//go:build !amd64 || purego

package simd

// BatchNormSqDev8 is unavailable in this build; see Enabled.
func BatchNormSqDev8(rows, cols, ld int, x []float32, mu, acc []float64) int {
	panic("simd: BatchNormSqDev8 called without vector support")
}

// BatchNormOut8 is unavailable in this build; see Enabled.
func BatchNormOut8(rows, cols, ld int, x, out []float32, mu, s []float64) int {
	panic("simd: BatchNormOut8 called without vector support")
}

// BatchNormBackSums8 is unavailable in this build; see Enabled.
func BatchNormBackSums8(rows, cols, ld int, g, y []float32, sg, sgy []float64) int {
	panic("simd: BatchNormBackSums8 called without vector support")
}

// BatchNormBackOut8 is unavailable in this build; see Enabled.
func BatchNormBackOut8(rows, cols, ld int, g, y, gx []float32, mg, mgy, s []float64) int {
	panic("simd: BatchNormBackOut8 called without vector support")
}
