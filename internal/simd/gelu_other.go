//go:build !amd64 || purego

package simd

// GELUArgs is unavailable in this build; see Enabled.
func GELUArgs(x []float32, e []float64) {
	panic("simd: GELUArgs called without vector support")
}

// GELUBackArgs is unavailable in this build; see Enabled.
func GELUBackArgs(x []float32, e, p []float64) bool {
	panic("simd: GELUBackArgs called without vector support")
}

// GELUOut is unavailable in this build; see Enabled.
func GELUOut(y, x []float32, e []float64) {
	panic("simd: GELUOut called without vector support")
}

// GELUBackOut is unavailable in this build; see Enabled.
func GELUBackOut(gx, gy, x []float32, e, p []float64) {
	panic("simd: GELUBackOut called without vector support")
}
