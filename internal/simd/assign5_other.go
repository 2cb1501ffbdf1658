//go:build !amd64 || purego

package simd

// ReLUAddScaledSubBackwardFresh is unavailable in this build; see Enabled.
func ReLUAddScaledSubBackwardFresh(gy, out, gx, ga, gb []float32, c, mi float32, fresh int) {
	panic("simd: ReLUAddScaledSubBackwardFresh called without vector support")
}

// ColSums2Narrow is unavailable in this build; see Enabled.
func ColSums2Narrow(rows, cols int, g, m1, m2 []float32, s1, s2 []float64) {
	panic("simd: ColSums2Narrow called without vector support")
}

// SoftmaxNormRows4 is unavailable in this build; see Enabled.
func SoftmaxNormRows4(y []float32, cols int) {
	panic("simd: SoftmaxNormRows4 called without vector support")
}

// AXPYRows is unavailable in this build; see Enabled.
func AXPYRows(c float32, xi, yi []int32, x, y []float32, ld, cols, neg int) {
	panic("simd: AXPYRows called without vector support")
}

// AXPYFresh is unavailable in this build; see Enabled.
func AXPYFresh(c float32, x, y []float32) {
	panic("simd: AXPYFresh called without vector support")
}
