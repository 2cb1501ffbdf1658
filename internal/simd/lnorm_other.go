//go:build !amd64 || purego

package simd

// LayerNormSums4 is unavailable in this build; see Enabled.
func LayerNormSums4(n int, x [4][]float32, sums *[4]float64) {
	panic("simd: LayerNormSums4 called without vector support")
}

// LayerNormSqDev4 is unavailable in this build; see Enabled.
func LayerNormSqDev4(n int, x [4][]float32, mu, ss *[4]float64) {
	panic("simd: LayerNormSqDev4 called without vector support")
}

// LayerNormBackSums4 is unavailable in this build; see Enabled.
func LayerNormBackSums4(n int, g, y [4][]float32, sg, sgy *[4]float64) {
	panic("simd: LayerNormBackSums4 called without vector support")
}

// LayerNormOutRow is unavailable in this build; see Enabled.
func LayerNormOutRow(x, out []float32, mu, s float64) int {
	panic("simd: LayerNormOutRow called without vector support")
}

// LayerNormBackOutRow is unavailable in this build; see Enabled.
func LayerNormBackOutRow(gy, y, gx []float32, mg, mgy, s float64) int {
	panic("simd: LayerNormBackOutRow called without vector support")
}
