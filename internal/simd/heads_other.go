//go:build !amd64 || purego

package simd

// EdgeSoftmaxPre is unavailable in this build; see Enabled.
func EdgeSoftmaxPre(h int, s, out []float32) {
	panic("simd: EdgeSoftmaxPre called without vector support")
}

// EdgeSoftmaxPost is unavailable in this build; see Enabled.
func EdgeSoftmaxPost(h int, out []float32) {
	panic("simd: EdgeSoftmaxPost called without vector support")
}

// EdgeSoftmaxBack is unavailable in this build; see Enabled.
func EdgeSoftmaxBack(h int, o, g, s []float32, first bool) {
	panic("simd: EdgeSoftmaxBack called without vector support")
}

// AddRows is unavailable in this build; see Enabled.
func AddRows(h, n int, idx []int32, src, dst []float32) {
	panic("simd: AddRows called without vector support")
}

// GatherAdd is unavailable in this build; see Enabled.
func GatherAdd(h int, col []int32, a, b, out []float32) {
	panic("simd: GatherAdd called without vector support")
}
