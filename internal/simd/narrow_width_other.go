//go:build !amd64 || purego

package simd

// PackPanels16 is unavailable in this build; see Enabled.
func PackPanels16(dst, src []float32, ld, kc, nq, stride int) {
	panic("simd: PackPanels16 called without vector support")
}
