//go:build !amd64 || purego

package simd

// NonZeroRowList is unavailable in this build; see Enabled.
func NonZeroRowList(x []float32, k, most int, out []int32) int {
	panic("simd: NonZeroRowList called without vector support")
}

// ArgmaxRows is unavailable in this build; see Enabled.
func ArgmaxRows(x []float32, cols int, idx []int32) {
	panic("simd: ArgmaxRows called without vector support")
}

// OneHotArgmaxRows is unavailable in this build; see Enabled.
func OneHotArgmaxRows(x []float32, cols int, idx []int32, oh []float32) {
	panic("simd: OneHotArgmaxRows called without vector support")
}

// SpMMNarrowGroups is unavailable in this build; see Enabled.
func SpMMNarrowGroups(rows, rowPtr, col []int32, val, b, c []float32, n int, alpha float32, set bool) {
	panic("simd: SpMMNarrowGroups called without vector support")
}

// ScaleVec is unavailable in this build; see Enabled.
func ScaleVec(x, y []float32, c float32) { panic("simd: ScaleVec called without vector support") }

// SoftmaxShiftRows is unavailable in this build; see Enabled.
func SoftmaxShiftRows(x []float32, cols int, y []float32) {
	panic("simd: SoftmaxShiftRows called without vector support")
}

// SoftmaxNormRows is unavailable in this build; see Enabled.
func SoftmaxNormRows(y []float32, cols int) {
	panic("simd: SoftmaxNormRows called without vector support")
}

// CEShiftRows is unavailable in this build; see Enabled.
func CEShiftRows(idx []int32, x []float32, cols int, buf []float64, mx []float32, lim float64) int {
	panic("simd: CEShiftRows called without vector support")
}

// CEShiftRowsBy is unavailable in this build; see Enabled.
func CEShiftRowsBy(idx []int32, x []float32, cols int, buf []float64, s []float32, lim float64) int {
	panic("simd: CEShiftRowsBy called without vector support")
}

// SoftmaxBackRows is unavailable in this build; see Enabled.
func SoftmaxBackRows(y, g, gx []float32, cols int) {
	panic("simd: SoftmaxBackRows called without vector support")
}

// CEGradRows is unavailable in this build; see Enabled.
func CEGradRows(idx []int32, buf []float64, gx []float32, cols int, g float32, lab []int32) {
	panic("simd: CEGradRows called without vector support")
}
